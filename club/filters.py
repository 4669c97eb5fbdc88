import django_filters
from django.utils.translation import gettext_lazy as _

from .models import Player


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", label=_("name"))
    club = django_filters.CharFilter(lookup_expr="icontains", label=_("club"))
    country = django_filters.CharFilter(lookup_expr="icontains", label=_("country"))

    class Meta:
        model = Player
        fields = ["name", "club", "country"]
