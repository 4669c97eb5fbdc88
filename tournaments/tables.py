from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from club.tables import DateColumn, date_cell, linked
from matches.selectors import match_score_sheet
from matches.tables import MatchTable

from .pairing.standings import Decider
from .ratings import CENT
from .reasons import reason_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from django.utils.safestring import SafeString
    from django_stubs_ext import StrOrPromise

    from club.models import Player
    from matches.models import Match
    from matches.selectors import ScoreSheet

    from .models import Entry, Place, RatingChange
    from .queries.standings import StandingRow


def _place(match: Match) -> Place | None:
    """The match's place in an event, or None for a match outside any tournament."""
    return getattr(match, "place", None)


def _signed(change: Decimal) -> str:
    """A rating change in the visitor's format with its sign: +12,34 in Italian."""
    return ("+" if change > 0 else "") + number_format(change, decimal_pos=2)


class EventRoundColumns(tables.Table):
    """The event (a link to it) and the round of each row's match, the round named as the
    match's header names it (:attr:`tournaments.models.Place.round_name`); blank outside
    any tournament. ``match_of`` finds a row's match."""

    event = tables.Column(verbose_name=_("event"), empty_values=(), orderable=False)

    @staticmethod
    def match_of(record: Match) -> Match:
        return record

    def cell_event(self, record: Match) -> SafeString | str:  # see table_rows.py
        return self.render_event(record)

    def render_event(self, record: Match) -> SafeString | str:
        place = _place(self.match_of(record))
        if place is None:
            return ""
        event = place.event
        return format_html(
            '<a href="{}">{} · {}</a> · <span class="round">{}</span>',
            event.get_absolute_url(),
            event.tournament.name,
            event.name,
            str(place.round_name),
        )


# what placed a round robin player among those level with them on wins, in a few words
DECIDED_BY = {
    Decider.WINS: _("wins"),
    Decider.HEAD_TO_HEAD: _("head-to-head"),
    Decider.HEAD_TO_HEAD_DIFFERENCE: _("head-to-head points difference"),
    Decider.DIFFERENCE: _("points difference"),
    Decider.POINTS_FOR: _("points scored"),
    Decider.SHARED: _("level on every tie-break"),
}


class TournamentTable(tables.Table):
    name = tables.Column(verbose_name=_("name"), linkify=True)
    date = tables.DateColumn(verbose_name=_("date"), short=False)
    venue = tables.Column(verbose_name=_("venue"))
    event_count = tables.Column(verbose_name=_("events"))

    class Meta:
        attrs = {"class": "table"}


class EntryTable(tables.Table):
    """The event's entries; directors get check-in and withdraw buttons on each row."""

    seed = tables.Column(verbose_name=_("seed"), default="")
    player = tables.Column(verbose_name=_("player"), linkify=True, accessor="player")
    rating = tables.Column(verbose_name=_("rating"), accessor="player__rating")
    pool = tables.Column(verbose_name=_("pool"), accessor="pool_name", default="")
    status = tables.Column(verbose_name=_("status"))
    actions = tables.TemplateColumn(
        template_name="entry_actions.html",
        verbose_name="",
        orderable=False,
        exclude_from_export=True,
    )

    class Meta:
        attrs = {"class": "table entries", "id": "entries-table"}
        # a row is swapped alone when a player is checked in (htmx, see entry_actions.html)
        row_attrs = {"id": lambda record: f"entry-{record.pk}", "data-filtered": ""}
        orderable = False
        template_name = "tables/rows.html"  # rows written in Python: 64 on an event's page

    # a row's cells as django-tables2 writes them (BoundRow.get_cell), without its work per
    # cell (the pool and the director's buttons are left to it): tables/rows.html asks these,
    # and tests/tournaments/test_event_page_rows.py holds them to django-tables2's own
    def cell_seed(self, record: Entry) -> int | str:
        return record.seed if record.seed is not None else ""

    def cell_player(self, record: Entry) -> SafeString:
        player = record.player  # linkify: a link to the player's page
        return format_html('<a href="{}">{}</a>', player.get_absolute_url(), player)

    def cell_rating(self, record: Entry) -> Decimal | str:
        rating = record.player.rating
        return rating if rating is not None else self.default

    def cell_status(self, record: Entry) -> str:
        return record.get_status_display()


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name="#", accessor="standing__rank")
    player = tables.Column(verbose_name=_("player"))
    pool = tables.Column(verbose_name=_("pool"))
    played = tables.Column(verbose_name=_("played"), accessor="standing__played")
    wins = tables.Column(verbose_name=_("wins"), accessor="standing__wins")
    losses = tables.Column(verbose_name=_("losses"), accessor="standing__losses")
    byes = tables.Column(verbose_name=_("byes"), accessor="standing__byes")
    buchholz = tables.Column(verbose_name=_("Buchholz"), accessor="standing__buchholz")
    median = tables.Column(verbose_name=_("median"), accessor="standing__median")
    head_to_head = tables.Column(verbose_name=_("head-to-head"), accessor="standing__head_to_head")
    difference = tables.Column(verbose_name=_("points difference"), accessor="standing__difference")
    decided_by = tables.Column(verbose_name=_("placed by"), accessor="standing__decided_by")
    # a withdrawn player stays ranked on what they played: the page says so beside the name,
    # the download in a column of its own (hidden on the page)
    withdrawn = tables.Column(verbose_name=_("withdrawn"), visible=False)

    class Meta:
        attrs = {"class": "table standings"}
        orderable = False

    def render_rank(self, value: int, record: StandingRow) -> str | int:
        """A place shared after every tie-break reads "=2" on the page (the download keeps the
        number: a spreadsheet would take "=2" for a formula)."""
        return f"={value}" if record.standing.shared else value

    def value_rank(self, value: int) -> int:
        return value

    def render_decided_by(self, value: Decider) -> StrOrPromise:
        return DECIDED_BY[value]

    def render_player(self, value: Player, record: StandingRow) -> SafeString:
        link = format_html('<a href="{}">{}</a>', value.get_absolute_url(), value.name)
        if not record.withdrawn:
            return link
        return format_html('{} <span class="tag muted">{}</span>', link, _("withdrawn"))

    def value_player(self, value: Player) -> str:
        return value.name

    def value_withdrawn(self, value: bool) -> StrOrPromise:
        return _("yes") if value else ""


SWISS_ONLY = ("byes", "buchholz", "median")
ROUND_ROBIN_ONLY = ("pool", "head_to_head", "difference", "decided_by")


def standings_table(rows: Iterable[StandingRow], *, swiss: bool) -> StandingsTable:
    return StandingsTable(rows, exclude=ROUND_ROBIN_ONLY if swiss else SWISS_ONLY)


class PairingTable(tables.Table):
    """A round's pairings, as printed for the players and shown to the director."""

    table = tables.Column(verbose_name=_("table"), empty_values=(), orderable=False)
    bracket_key = tables.Column(verbose_name=_("match code"), accessor="place__bracket_key")
    player_a = tables.Column(verbose_name=_("player"))
    player_b = tables.Column(verbose_name=_("opponent"))
    length = tables.Column(verbose_name=_("length"))
    result = tables.Column(verbose_name=_("result"), empty_values=(), orderable=False)
    reason = tables.Column(
        verbose_name=_("why this pairing"), accessor="place__reason_code", default=""
    )
    match = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        attrs = {"class": "table pairings"}
        orderable = False
        template_name = "tables/rows.html"  # rows written in Python: an event page has many

    def __init__(
        self, *args: Any, sheets: Mapping[int, ScoreSheet] | None = None, **kwargs: Any
    ) -> None:
        """``sheets``: the matches' score sheets by match id, when the page has worked them
        out already (an event's knockout has), so a row does not derive its score again."""
        super().__init__(*args, **kwargs)
        self.sheets = sheets or {}

    # a row's cells as django-tables2 writes them (BoundRow.get_cell), without its work per
    # cell: tables/rows.html asks these (club/templatetags/table_rows.py), and
    # tests/tournaments/test_event_page_rows.py holds them to django-tables2's own
    def cell_table(self, record: Match) -> int | str:
        return self.render_table(record)

    def cell_bracket_key(self, record: Match) -> str:
        return record.place.bracket_key or self.default  # the column's default: "—"

    def cell_player_a(self, record: Match) -> Player:
        return record.player_a

    def cell_player_b(self, record: Match) -> Player:
        return record.player_b

    def cell_length(self, record: Match) -> int:
        return record.length

    def cell_result(self, record: Match) -> str:
        return self.render_result(record)

    def cell_reason(self, record: Match) -> str:
        return self.render_reason(record) if record.place.reason_code else ""

    def cell_match(self, record: Match) -> SafeString:
        return self.render_match(record)

    def render_table(self, record: Match) -> int | str:
        """The table the match is at (:mod:`tournaments.venue`); a dash while it waits."""
        table = getattr(record, "table", None)  # no table: Django raises, the column waits
        return table.number if table is not None else "—"

    def render_reason(self, record: Match) -> str:
        place = record.place
        return reason_text(place.reason_code, place.reason_params, record.player_a, record.player_b)

    def render_result(self, record: Match) -> str:
        if record.status == record.Status.WALKOVER:
            winner = record.walkover_winner
            assert winner is not None, "a walkover names its winner"
            return _("walkover: %(player)s") % {"player": record.player(winner)}
        sheet = self.sheets.get(record.pk) or match_score_sheet(match=record)
        return f"{sheet.score[0]}–{sheet.score[1]}" if sheet.rows or sheet.over else "—"

    def render_match(self, record: Match) -> SafeString:
        """A link to the match's sheet (what ``linkify`` wrote, without its work per cell)."""
        return format_html('<a href="{}">{}</a>', record.get_absolute_url(), _("sheet"))


class PlayerMatchTable(EventRoundColumns, MatchTable):
    """A player's matches, each with its event and round."""

    class Meta(MatchTable.Meta):
        sequence = ("date", "event", "...")
        attrs = {"class": "table", "id": "player-matches"}


class RatingHistoryTable(EventRoundColumns):
    date = DateColumn(verbose_name=_("date"), accessor="match__date", short=False)
    match = tables.Column(verbose_name=_("match"), linkify=True)
    rating_before = tables.Column(verbose_name=_("before"))
    change = tables.Column(verbose_name=_("change"), empty_values=())
    rating_after = tables.Column(verbose_name=_("after"))
    experience_after = tables.Column(verbose_name=_("experience"))

    class Meta:
        attrs = {"class": "table ratings", "id": "rating-history"}
        orderable = False
        template_name = "tables/rows.html"  # rows written in Python, as a player's matches
        sequence = ("date", "match", "event", "...")

    @staticmethod
    def match_of(record: RatingChange) -> Match:  # type: ignore[override]  # a change's match
        return record.match

    def render_change(self, record: RatingChange) -> str:
        return _signed(record.change)  # in the visitor's format, like the ratings beside it

    # a row's cells as django-tables2 writes them, without its work per cell:
    # tables/rows.html asks these, tests/tournaments/test_list_page_rows.py holds them equal
    def cell_date(self, record: RatingChange) -> SafeString:
        return date_cell(self, "date", record.match.date)

    def cell_match(self, record: RatingChange) -> SafeString:
        return linked(record.match.get_absolute_url(), record.match)

    def cell_rating_before(self, record: RatingChange) -> Decimal:
        return record.rating_before

    def cell_change(self, record: RatingChange) -> str:
        return self.render_change(record)

    def cell_rating_after(self, record: RatingChange) -> Decimal:
        return record.rating_after

    def cell_experience_after(self, record: RatingChange) -> int:
        return record.experience_after


class RatingListTable(tables.Table):
    """The club's rating list (:func:`tournaments.queries.players.rating_list`): sorting by rank
    is sorting by rating, best first."""

    rank = tables.Column(verbose_name="#", order_by=("-rating", "sort_name", "name", "id"))
    name = tables.Column(verbose_name=_("name"), linkify=True, order_by=("sort_name", "name", "id"))
    club = tables.Column(verbose_name=_("club"))
    country = tables.Column(verbose_name=_("country"))
    rating = tables.Column(verbose_name=_("rating"))
    rated = tables.Column(verbose_name=_("rated matches"))
    experience = tables.Column(verbose_name=_("experience"))
    last_change = tables.Column(verbose_name=_("last change"))
    last_date = tables.DateColumn(verbose_name=_("last rated match"), short=False)

    class Meta:
        attrs = {"class": "table rating-list", "id": "rating-list"}
        empty_text = _("No player has a rated match yet.")

    # SQLite's subtraction leaves 22.3599999...: to the cent before it is shown
    def render_last_change(self, value: Decimal) -> str:
        return _signed(value.quantize(CENT))

    def value_last_change(self, value: Decimal) -> Decimal:
        return value.quantize(CENT)
