from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from club.actors import Actor
from club.forms import (
    NameField,
    OneLineField,
    PlayerChoiceField,
    PlayerMultipleChoiceField,
    RowsChoiceField,
)
from club.models import Player
from matches.models import Match
from matches.services import length_checked

from .cut import CutPreview
from .models import Entry, Event, Round, Tournament
from .services import KEEP
from .services.events import parse_lengths


class TournamentForm(forms.Form):
    name = NameField(label=_("Name"), max_length=120)
    # a date input takes ISO dates only: never the visitor's format (Italian 13/12/2026)
    date = forms.DateField(
        label=_("Date"),
        initial=timezone.localdate,  # most tournaments are entered on their day
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    venue = OneLineField(label=_("Venue"), max_length=120, required=False)
    directors = RowsChoiceField(
        get_user_model().objects.none(),
        label=_("Other directors"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, user: Actor | None = None, **kwargs: Any) -> None:
        """``user``: the director creating it, a director already (the service adds them):
        named in the help text, never offered as a box they could untick by accident."""
        super().__init__(*args, **kwargs)
        users = get_user_model().objects.filter(groups__name=settings.DIRECTORS_GROUP)
        directors = cast("RowsChoiceField[User]", self.fields["directors"])
        if isinstance(user, User):  # a person (a visitor or the site has no pk)
            users = users.exclude(pk=user.pk)
            said = {"name": user.get_username()}
            directors.help_text = (
                _("You (%(name)s) direct it already; tick the others who run it with you.") % said
                if users.exists()
                else _("You (%(name)s) direct it; no other director is registered yet.") % said
            )
        directors.queryset = users.order_by("username")


class TournamentEditForm(TournamentForm):
    """A tournament's details put right: its directors (who may be outside the Directors
    group, named by staff) and whether players enter dice rolled at the table."""

    physical_dice = forms.BooleanField(
        label=_("Let the players enter dice rolled at the table"), required=False
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        initial = {
            "name": tournament.name,
            "date": tournament.date,
            "venue": tournament.venue,
            "directors": list(tournament.directors.all()),
            "physical_dice": tournament.physical_dice,
        }
        super().__init__(*args, initial=initial, **kwargs)
        users = get_user_model().objects.filter(
            Q(groups__name=settings.DIRECTORS_GROUP) | Q(directed_tournaments=tournament)
        )
        directors = cast("RowsChoiceField[User]", self.fields["directors"])
        directors.label = _("Directors")
        directors.queryset = users.distinct().order_by("username")
        directors.required = True
        directors.help_text = _("Who runs it; it keeps at least one.")
        directors.error_messages["required"] = _(
            "A tournament keeps at least one director: choose who runs it."
        )


class EventForm(forms.Form):
    name = NameField(
        label=_("Name"),
        max_length=120,
        required=False,
        help_text=_(
            "leave empty for the site to name it in each reader's language: by its format, or "
            "“Swiss – last 4” for a knockout cut from a Swiss"
        ),
    )
    format = forms.ChoiceField(label=_("Format"), choices=Event.Format.choices)
    lengths = forms.CharField(
        label=_("Match lengths by round"),
        initial="5, 5, 7, 7, 9, 11",
        help_text=_(
            "Odd numbers, one per round, e.g. 5, 5, 7, 7, 9, 11; the last holds for later rounds "
            "(and a double-elimination final)."
        ),
    )
    seeding = forms.ChoiceField(
        label=_("Draw"),
        choices=[c for c in Event.Seeding.choices if c[0] != Event.Seeding.STANDINGS],
    )
    swiss_rounds = forms.IntegerField(
        label=_("Swiss rounds"), min_value=1, max_value=20, required=False
    )
    cut = forms.IntegerField(
        label=_("Cut the Swiss to a knockout of"),
        min_value=2,
        max_value=512,
        required=False,
        help_text=_("players; leave empty for no cut"),
    )
    pools = forms.IntegerField(
        label=_("Round robin pools"), min_value=1, max_value=64, required=False
    )
    third_place = forms.BooleanField(
        label=_("Play-off for third place"),
        required=False,
        help_text=_("a knockout: the semi-finals' losers play for third place"),
    )
    holland = forms.BooleanField(
        label=_("Holland rule (Galore 5.4)"),
        required=False,
        help_text=_("post-Crawford, the trailer may not double before their third turn"),
    )

    # what shapes the draw: changed only before it is made
    SETUP = ("format", "lengths", "seeding", "swiss_rounds", "cut", "pools", "third_place")

    def __init__(self, *args: Any, event: Event | None = None, **kwargs: Any) -> None:
        if event is not None:
            kwargs["initial"] = {
                "name": event.given_name,  # a name the site makes stays the site's
                "format": event.format,
                "lengths": ", ".join(str(r.length) for r in event.rounds.all()),
                "seeding": event.seeding,
                "swiss_rounds": event.swiss_rounds,
                "cut": event.cut,
                "pools": event.pools,
                "third_place": event.third_place,
                "holland": event.holland,
            }
        super().__init__(*args, **kwargs)
        if event is not None and (event.drawn or event.parent_id is not None):
            for field in self.SETUP:
                if field != "lengths":  # the rounds not yet begun change theirs
                    del self.fields[field]
            self.fields["lengths"].required = False  # left out: they stay as they are
            self.fields["lengths"].help_text = _(
                "Odd numbers, one per round; the last holds for later rounds and the final. "
                "A round begun keeps its length; the matches not begun take the new one."
            )

    def clean_lengths(self) -> object:  # the lengths, or KEEP: they stay as they are
        if not self.cleaned_data["lengths"] and not self.fields["lengths"].required:
            return KEEP
        return parse_lengths(self.cleaned_data["lengths"])


class EntryForm(forms.Form):
    players = PlayerMultipleChoiceField(
        Player.objects.none(),
        label=_("Players"),
        widget=forms.CheckboxSelectMultiple(attrs={"class": "pick-list"}),
        help_text=_("Tick each player to enter; the search box above finds them."),
    )

    def __init__(self, *args: Any, event: Event | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entered = event.entries.values_list("player_id", flat=True) if event else []
        players = cast(PlayerMultipleChoiceField, self.fields["players"])
        players.queryset = Player.objects.exclude(pk__in=list(entered))


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_("Leave empty for a fresh random seed; it is published with the draw."),
    )


class TablesForm(forms.Form):
    tables = forms.IntegerField(
        label=_("Tables in the playing room"),
        required=False,
        min_value=1,
        max_value=500,
        help_text=_("numbered from 1 across all events; empty: matches get no table"),
    )


class TableMoveForm(forms.Form):
    """Move one of the round's matches, by its code, to another table."""

    match = forms.ChoiceField(label=_("Match"))
    table = forms.IntegerField(label=_("to table"), min_value=1)

    def __init__(self, *args: Any, matches: Iterable[Match] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["match"]).choices = [
            (m.pk, f"{m.place.bracket_key} · {m.player_a} – {m.player_b}") for m in matches
        ]


class LateEntryForm(forms.Form):
    """A player who arrives after the draw (see services.late.entry_late_add)."""

    player = PlayerChoiceField(Player.objects.none(), label=_("Player arriving late"))
    replaces = forms.ModelChoiceField(
        Entry.objects.none(),
        label=_("In the place of"),
        required=False,
        empty_label=_("nobody: a bye place, or the next round"),
        help_text=_("a withdrawn player who has played nothing yet"),
    )

    def __init__(self, *args: Any, event: Event | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # offered: anyone not in the draw, those entered who did not check in first; any
        # player is taken, so that one in the draw meanwhile is refused by the service in
        # plain words rather than as "not one of the available choices"
        player = cast(PlayerChoiceField, self.fields["player"])
        player.queryset = Player.objects.all()
        entries = list(event.entries.all()) if event is not None else []
        # in the draw, or withdrawn (Reinstate brings those back)
        out = {
            e.player_id for e in entries if e.seed is not None or e.status == Entry.Status.WITHDRAWN
        }
        waiting = {e.player_id for e in entries} - out
        offered = [p for p in player.queryset if p.pk not in out]
        others = [(p.pk, p.label) for p in offered if p.pk not in waiting]
        if waiting:
            player.choices = [
                ("", player.empty_label),
                (
                    _("Entered, not in the draw"),
                    [(p.pk, p.label) for p in offered if p.pk in waiting],
                ),
                (_("Not entered"), others),
            ]
        else:
            player.choices = [("", player.empty_label), *others]
        withdrawn = Entry.objects.none()
        if event is not None:
            withdrawn = event.entries.filter(
                status=Entry.Status.WITHDRAWN, seed__isnull=False
            ).select_related("player")
        replaces = cast("forms.ModelChoiceField[Entry]", self.fields["replaces"])
        replaces.queryset = withdrawn
        # Django's way to label one field's choices; mypy refuses assigning to a method
        replaces.label_from_instance = lambda obj: obj.player.label  # type: ignore[method-assign]
        if not withdrawn.exists():
            del self.fields["replaces"]


class LateRoundsForm(forms.Form):
    count_as = forms.ChoiceField(
        label=_("In a Swiss, the rounds a late arrival missed count"),
        choices=Tournament.LateRounds.choices,
    )


class ReportsForm(forms.Form):
    """Who enters the results, how the players report, how long a report waits."""

    results_by = forms.ChoiceField(
        label=_("Results are"), choices=Tournament.ResultsBy.choices, widget=forms.RadioSelect
    )
    report_detail = forms.ChoiceField(
        label=_("The players report"), choices=Tournament.ReportDetail.choices
    )
    confirm_minutes = forms.IntegerField(
        label=_("Minutes a report waits for the opponent"),
        min_value=1,
        max_value=1440,
        help_text=_("then it goes to the dashboard, for a director to settle"),
    )


class AnnouncementForm(forms.Form):
    """A notice for the playing room's wall display."""

    # its lines are joined into one on the wall; an override turning the text right to left
    # would show the room something else than what was typed (issue 23.11)
    text = OneLineField(
        label=_("Announcement"),
        max_length=280,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Shown in large type on the wall display, at most 280 characters."),
        joins_lines=True,
        error_messages={
            "one_line": _(
                "An announcement cannot hold invisible control characters, such as those "
                "that turn the text right to left: take them out."
            )
        },
    )
    minutes = forms.IntegerField(
        label=_("Shown for (minutes)"),
        min_value=1,
        max_value=24 * 60,
        required=False,
        help_text=_("Empty: until you withdraw it."),
    )


class OpenEntryForm(forms.Form):
    allowed = forms.BooleanField(
        label=_("Players signed in may ask to enter the events (you approve each)"),
        required=False,
    )


class CutForm(forms.Form):
    """The cut as the preview shows it: the knockout's lengths, one a round, and who goes
    through of the players level at the cut line, if any (:mod:`tournaments.cut`)."""

    version = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, preview: CutPreview, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["version"].initial = preview.version
        rounds = len(preview.lengths)
        for number, length in enumerate(preview.lengths, 1):
            self.fields[f"round_{number}"] = forms.IntegerField(
                label=_("Round %(number)s") % {"number": number} if number < rounds else _("Final"),
                initial=length,
                widget=forms.NumberInput(attrs={"min": 1, "step": 2, "class": "short"}),
            )
        if preview.tied:
            self.fields["chosen"] = forms.TypedMultipleChoiceField(
                label=ngettext(
                    "Who goes through (%(places)s of them)",
                    "Who goes through (%(places)s of them)",
                    preview.places,
                )
                % {"places": preview.places},
                coerce=int,
                choices=[
                    (
                        line.player.pk,
                        _("%(player)s (number %(number)s in the Swiss's draw)")
                        % {"player": line.player.name, "number": line.draw_number},
                    )
                    for line in preview.tied
                ],
                initial=[line.player.pk for line in preview.tied[: preview.places]],
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None, "Form.clean gives the cleaned data"
        for name in [n for n in self.fields if n.startswith("round_")]:
            if data.get(name) is not None:
                try:
                    length_checked(data[name])
                except ValidationError as error:
                    self.add_error(name, error)
        return data

    def lengths(self) -> list[int]:
        return [v for n, v in self.cleaned_data.items() if n.startswith("round_")]


class TimeRulesForm(forms.Form):
    """The tournament's time rules: lateness penalty points and its clocks (tournament
    rules, with the common defaults); which rounds use clocks is each round's."""

    late_minutes_per_point = forms.IntegerField(
        label=_("A penalty point for every (minutes late)"),
        min_value=0,
        max_value=120,
        help_text=_("0: no penalty points for lateness"),
    )
    late_grace_minutes = forms.IntegerField(
        label=_("Grace period (minutes)"), min_value=0, max_value=120
    )
    late_forfeit_at_half = forms.BooleanField(
        label=_("A late player forfeits once the penalty points reach half the match length"),
        required=False,
    )
    clock_seconds_per_point = forms.IntegerField(
        label=_("Clock: seconds per point of the match length"),
        min_value=1,
        max_value=3600,
        help_text=_("120: 14 minutes each for a 7-point match"),
    )
    clock_delay_seconds = forms.IntegerField(
        label=_("Clock: delay each turn (seconds)"),
        min_value=0,
        max_value=300,
        help_text=_("the clock runs only after the delay; 0: no delay"),
    )
    clock_on_flag = forms.ChoiceField(
        label=_("A player whose time runs out"), choices=Tournament.OnFlag.choices
    )

    @classmethod
    def of(cls, tournament: Tournament) -> TimeRulesForm:
        return cls(initial={name: getattr(tournament, name) for name in cls.base_fields})


class RoundTimesForm(forms.Form):
    """A round's start (its call) and whether its matches are played on clocks."""

    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("the round's call: a player not at the table then is late; empty: none"),
    )
    clocks = forms.ChoiceField(label=_("Clocks"), choices=Round.Clocks.choices)
