import django_filters
from django.utils.translation import gettext_lazy as _

from .models import Player


class PlayerFilter(django_filters.FilterSet):
    """The players' list filtered by name, club and country; a value longer than the field
    it looks in is refused (SQLite cannot match a pattern of 100,000 characters)."""

    name = django_filters.CharFilter(lookup_expr="icontains", label=_("name"), max_length=120)
    club = django_filters.CharFilter(lookup_expr="icontains", label=_("club"), max_length=120)
    country = django_filters.CharFilter(lookup_expr="icontains", label=_("country"), max_length=60)

    class Meta:
        model = Player
        fields = ["name", "club", "country"]
