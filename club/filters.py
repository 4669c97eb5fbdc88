import django_filters
from django.utils.translation import gettext_lazy as _

from rules.text import folded

from .countries import country_name
from .models import Player


def countries_registered() -> list[tuple[str, str]]:
    """The countries the register's players come from, by name in the visitor's language,
    each once: the players' own order is left out, or DISTINCT would keep a code per player
    (a season's 2,000 players made a select of 2,000 options, most of its list page's time)."""
    codes = (
        Player.objects.exclude(country="").order_by().values_list("country", flat=True).distinct()
    )
    named = [(code, country_name(code)) for code in codes]
    return sorted(named, key=lambda pair: folded(pair[1]))


class PlayerFilter(django_filters.FilterSet):
    """The players' list filtered by name, club and country; a value longer than the field
    it looks in is refused (SQLite cannot match a pattern of 100,000 characters). The
    country is chosen among those of the register, by name (stored as its ISO code)."""

    name = django_filters.CharFilter(lookup_expr="icontains", label=_("name"), max_length=120)
    club = django_filters.CharFilter(lookup_expr="icontains", label=_("club"), max_length=120)
    country = django_filters.ChoiceFilter(
        choices=countries_registered, label=_("country"), empty_label=_("any")
    )

    class Meta:
        model = Player
        fields = ["name", "club", "country"]
