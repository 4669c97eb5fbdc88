"""The forms of the tables' pages: starting a chouette or a money session, joining one,
and the few entries a tap cannot make (the opening roll, a deal, a game's result, a stake).

Each form turns what a phone sends into the engine's settings or events; the services
decide whether they may happen now (the engine's rules), and their refusals come back as
the form's own errors, in the visitor's language.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.forms import NameField, PlayerChoiceField, PlayerMultipleChoiceField
from club.models import Player
from matches.forms import VersionedForm
from rules.chouette.events import (
    Answer,
    BoxAnswers,
    BoxDoubles,
    Deal,
    End,
    Event,
    Opening,
    from_dict,
)
from rules.chouette.settings import BoxKeeping, ChouetteSettings, Consultation, CubeMode
from rules.errors import RulesError
from rules.money import Level, MoneyRules

from .services.tables import MAX_STAKE_CENTS

CUBE_CHOICES = [
    (
        CubeMode.SINGLE.value,
        gettext_lazy("Single cube: the box doubles the whole team (Galore 3.3)"),
    ),
    (CubeMode.MULTIPLE.value, gettext_lazy("Multiple cubes: a cube for each member (Galore 3.5)")),
]
CONSULTATION_CHOICES = [
    (Consultation.FREE.value, gettext_lazy("Free: the team may talk over every play")),
    (Consultation.FORBIDDEN.value, gettext_lazy("Forbidden: the captain plays alone")),
    (Consultation.AFTER_CUBE.value, gettext_lazy("Only after the cube has been turned")),
]
BOX_KEEPING_CHOICES = [
    (
        BoxKeeping.CAPTAIN.value,
        gettext_lazy("The box keeps the box unless it loses to the captain"),
    ),
    (
        BoxKeeping.NET.value,
        gettext_lazy("The box keeps the box unless it loses on the game overall"),
    ),
]
MAX_CUBE_CHOICES = [("", gettext_lazy("No limit"))] + [(str(2**n), str(2**n)) for n in range(1, 8)]
LEVEL_CHOICES = [
    (Level.SINGLE.name.lower(), gettext_lazy("Single")),
    (Level.GAMMON.name.lower(), gettext_lazy("Gammon")),
    (Level.BACKGAMMON.name.lower(), gettext_lazy("Backgammon")),
]
WINNER_CHOICES = [("box", gettext_lazy("The box")), ("team", gettext_lazy("The team"))]
DIE_CHOICES = [(str(n), str(n)) for n in range(1, 7)]


class StakeField(forms.DecimalField):
    """Money a point, typed as a club writes it ("0.50", in Italian "0,50"); the engine and
    the database keep whole cents."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", gettext_lazy("Stake a point"))
        kwargs.setdefault("required", False)
        super().__init__(
            min_value=Decimal(0),
            max_value=Decimal(MAX_STAKE_CENTS) / 100,
            max_digits=9,
            decimal_places=2,
            localize=True,
            **kwargs,
        )

    def clean(self, value: Any) -> int:
        amount = super().clean(value)
        return int((amount or Decimal(0)) * 100)


class MoneyOptionsForm(forms.Form):
    """The options of money play agreed before the first game (Galore 2.8, 5.4)."""

    jacoby = forms.BooleanField(
        label=gettext_lazy("Jacoby rule: gammons count single until the cube is turned"),
        required=False,
    )
    beavers = forms.BooleanField(label=gettext_lazy("Beavers"), required=False)
    raccoons = forms.BooleanField(
        label=gettext_lazy("Raccoons (only with beavers)"), required=False
    )
    automatic_doubles = forms.IntegerField(
        label=gettext_lazy("Automatic doubles on equal opening dice, at most"),
        min_value=0,
        max_value=6,
        initial=0,
    )
    max_cube = forms.TypedChoiceField(
        label=gettext_lazy("Highest cube"),
        choices=MAX_CUBE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
    )

    def money_rules(self) -> MoneyRules:
        data = self.cleaned_data
        return MoneyRules(
            jacoby=data["jacoby"],
            beavers=data["beavers"],
            raccoons=data["raccoons"],
            automatic_doubles=data["automatic_doubles"],
            max_cube=data["max_cube"],
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("raccoons") and not data.get("beavers"):
            self.add_error(
                "raccoons", _("A raccoon answers a beaver: allow beavers too (Galore 5.4).")
            )
        return data


class ChouetteForm(MoneyOptionsForm):
    """A chouette for the evening: its name, its cube, the settings (the seed's by default)
    and, if already at hand, the players to seat at once."""

    name = NameField(label=gettext_lazy("Name"), max_length=80)
    cubes = forms.ChoiceField(
        label=gettext_lazy("Cubes"), choices=CUBE_CHOICES, widget=forms.RadioSelect
    )
    consultation = forms.ChoiceField(
        label=gettext_lazy("Consultation (Galore 3.2)"),
        choices=CONSULTATION_CHOICES,
        widget=forms.RadioSelect,
    )
    box_keeping = forms.ChoiceField(
        label=gettext_lazy("Who keeps the box"),
        choices=BOX_KEEPING_CHOICES,
        widget=forms.RadioSelect,
    )
    winners_move_up = forms.BooleanField(
        label=gettext_lazy("Members who beat the box move ahead of those who lost"),
        required=False,
    )
    last_must_drop = forms.BooleanField(
        label=gettext_lazy("With five or more, the last member must drop when all others drop"),
        required=False,
    )
    extra_cubes = forms.BooleanField(
        label=gettext_lazy("Extra 2-cubes when a single member takes (Galore 3.4)"),
        required=False,
    )
    partner_from = forms.IntegerField(
        label=gettext_lazy("The box takes a partner from this many players (Galore 3.6)"),
        help_text=gettext_lazy("Empty: never a partner."),
        min_value=3,
        max_value=30,
        required=False,
    )
    players = PlayerMultipleChoiceField(
        label=gettext_lazy("Players to seat now"),
        queryset=Player.objects.order_by("name"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    stake = StakeField()
    field_order = [
        "name",
        "cubes",
        "consultation",
        "box_keeping",
        "winners_move_up",
        "last_must_drop",
        "extra_cubes",
        "partner_from",
        "jacoby",
        "beavers",
        "raccoons",
        "automatic_doubles",
        "max_cube",
        "stake",
        "players",
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        seed = ChouetteSettings()
        initial = {
            "cubes": seed.cubes.value,
            "consultation": seed.consultation.value,
            "box_keeping": seed.box_keeping.value,
            "winners_move_up": seed.winners_move_up,
            "last_must_drop": seed.last_must_drop,
            "extra_cubes": seed.extra_cubes,
            "partner_from": seed.partner_from,
            "automatic_doubles": seed.money.automatic_doubles,
        }
        kwargs["initial"] = {**initial, **kwargs.get("initial", {})}
        super().__init__(*args, **kwargs)

    def chouette_settings(self) -> ChouetteSettings:
        data = self.cleaned_data
        return ChouetteSettings(
            cubes=CubeMode(data["cubes"]),
            money=self.money_rules(),
            consultation=Consultation(data["consultation"]),
            box_keeping=BoxKeeping(data["box_keeping"]),
            winners_move_up=data["winners_move_up"],
            last_must_drop=data["last_must_drop"],
            extra_cubes=data["extra_cubes"],
            partner_from=data["partner_from"],
        )


class MoneySessionForm(MoneyOptionsForm):
    """A money session between two players: a chouette of two, one cube, no rating."""

    player_a = PlayerChoiceField(label=gettext_lazy("Player"), queryset=Player.objects.all())
    player_b = PlayerChoiceField(
        label=gettext_lazy("The other player"), queryset=Player.objects.all()
    )
    stake = StakeField()
    field_order = ["player_a", "player_b", "jacoby", "beavers", "raccoons"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("player_a") and data.get("player_a") == data.get("player_b"):
            self.add_error("player_b", _("Choose another player: a session has two."))
        return data

    def chouette_settings(self) -> ChouetteSettings:
        return ChouetteSettings(cubes=CubeMode.SINGLE, money=self.money_rules(), partner_from=None)


class JoinForm(forms.Form):
    """The code of a table, as read from the screen or the QR code (any case, any spaces)."""

    code = forms.CharField(label=gettext_lazy("Table code"), max_length=20)
    stake = StakeField()

    def clean_code(self) -> str:
        return normal_code(self.cleaned_data["code"])


def normal_code(text: str) -> str:
    """A table's code as stored: upper case, letters and digits only (what a person types
    around it, spaces or a dash, is dropped; so is a NUL byte, which PostgreSQL refuses)."""
    return "".join(ch for ch in text if ch.isascii() and ch.isalnum()).upper()[:20]


class SeatForm(forms.Form):
    """A player seated by the table's creator or a director (a player without a phone)."""

    player = PlayerChoiceField(label=gettext_lazy("Player"), queryset=Player.objects.all())
    stake = StakeField()

    def __init__(self, *args: Any, seated: list[int], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "seat_%s")  # ids unique on the table's page
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, PlayerChoiceField)
        field.queryset = Player.objects.exclude(pk__in=seated).order_by("name")


class StakeForm(forms.Form):
    """A player's stake a point (each player may have their own, club practice)."""

    player = PlayerChoiceField(label=gettext_lazy("Player"), queryset=Player.objects.none())
    stake = StakeField(required=True)

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "stake_%s")  # ids unique on the table's page
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, PlayerChoiceField)
        field.queryset = Player.objects.filter(pk__in=[p.pk for p in players]).order_by("name")


class BoxDoublesForm(VersionedForm):
    """Multiple cubes: the box doubles the members it ticks, each on their own cube
    (Galore 3.5)."""

    members = forms.MultipleChoiceField(
        label=gettext_lazy("Double"), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, members: list[tuple[str, str]], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "box_%s")  # ids unique on the table's page
        super().__init__(*args, **kwargs)
        field = self.fields["members"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = members
        field.initial = [member for member, _name in members]

    def event(self) -> BoxDoubles:
        return BoxDoubles(members=tuple(self.cleaned_data["members"]))


class UndoForm(VersionedForm):
    """The last game taken back: only the version the page was drawn from."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "undo_%s")  # ids unique on the table's page
        super().__init__(*args, **kwargs)


class ActForm(VersionedForm):
    """One tap: the event a button carries (its engine form, as JSON), and the version of
    the table the page showed. Which events may happen now is the engine's to say."""

    event = forms.CharField(widget=forms.HiddenInput, max_length=2000)

    def clean_event(self) -> Event:
        return parsed_event(self.cleaned_data["event"])


def parsed_event(text: str) -> Event:
    """An event as a button sent it; anything else is refused in words, never a 500."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(text)
        return from_dict(data)
    except (ValueError, TypeError, KeyError, RulesError) as error:
        raise ValidationError(
            _("This button is not one the table offers: reload the page and tap again."),
            code="event",
        ) from error


class OpeningForm(VersionedForm):
    """The opening roll (Galore 3.1): each player's die; the highest is the box, then the
    captain, and so on. Equal dice roll again: the engine refuses them."""

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "opening_%s")  # ids unique on the table's page
        super().__init__(*args, **kwargs)
        self.players = players
        for player in players:
            self.fields[f"die_{player.pk}"] = forms.TypedChoiceField(
                label=player.name, choices=DIE_CHOICES, coerce=int, widget=forms.RadioSelect
            )

    def event(self) -> Opening:
        rolls = tuple(
            (str(player.pk), self.cleaned_data[f"die_{player.pk}"]) for player in self.players
        )
        return Opening(rolls=rolls)


class DealForm(VersionedForm):
    """A deal (club practice): the box and some members settle the game now at a number of
    points each; with the captain among them, who won the game is said for the rotation."""

    members = forms.MultipleChoiceField(
        label=gettext_lazy("Members who settle"), widget=forms.CheckboxSelectMultiple
    )
    points = forms.IntegerField(
        label=gettext_lazy("Points each"),
        help_text=gettext_lazy("Positive: the members pay the box; negative: the box pays them."),
        min_value=-999,
        max_value=999,
    )
    box_wins = forms.TypedChoiceField(
        label=gettext_lazy("Who wins the game (when the captain settles)"),
        choices=[("", gettext_lazy("Not said"))] + WINNER_CHOICES,
        coerce=lambda value: value == "box",
        empty_value=None,
        required=False,
    )

    def __init__(self, *args: Any, members: list[tuple[str, str]], **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "deal_%s")  # ids unique on the table's page
        super().__init__(*args, **kwargs)
        field = self.fields["members"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = members

    def clean_points(self) -> int:
        points: int = self.cleaned_data["points"]
        if points == 0:
            raise ValidationError(_("A deal is for some points: not zero."), code="zero")
        return points

    def event(self) -> Deal:
        data = self.cleaned_data
        return Deal(
            members=tuple(data["members"]), points=data["points"], box_wins=data["box_wins"]
        )


class EndForm(VersionedForm):
    """The game's result for those still in: who won, and how much (single, gammon,
    backgammon), played out or resigned."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "end_%s")  # ids unique on the table's page
        super().__init__(*args, **kwargs)

    winner = forms.ChoiceField(
        label=gettext_lazy("Who won"), choices=WINNER_CHOICES, widget=forms.RadioSelect
    )
    level = forms.ChoiceField(
        label=gettext_lazy("How"), choices=LEVEL_CHOICES, widget=forms.RadioSelect, initial="single"
    )
    resigned = forms.BooleanField(label=gettext_lazy("Resigned"), required=False)

    def event(self) -> End:
        data = self.cleaned_data
        return End(
            box_wins=data["winner"] == "box",
            level=Level[data["level"].upper()],
            resigned=data["resigned"],
        )


ANSWER_CHOICES = [
    ("take", gettext_lazy("Take")),
    ("drop", gettext_lazy("Drop")),
    ("beaver", gettext_lazy("Beaver")),
]


class CorrectForm(VersionedForm):
    """A director's correction of an event with no form of its own: its engine form
    (JSON), edited. The whole log must still replay (the service checks)."""

    event = forms.CharField(
        label=gettext_lazy("The entry, as the engine keeps it"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=2000,
    )

    def clean_event(self) -> Event:
        return parsed_event(self.cleaned_data["event"])

    def corrected(self, before: Event) -> Event:
        event: Event = self.cleaned_data["event"]
        return event


class AnswerCorrectForm(VersionedForm):
    """A take that was a drop, or the other way round."""

    answer = forms.ChoiceField(
        label=gettext_lazy("The answer"), choices=ANSWER_CHOICES, widget=forms.RadioSelect
    )

    def corrected(self, before: Event) -> Event:
        return dataclasses.replace(before, answer=self.cleaned_data["answer"])


class EndCorrectForm(EndForm):
    def corrected(self, before: Event) -> Event:
        return self.event()


class DealCorrectForm(DealForm):
    def corrected(self, before: Event) -> Event:
        return self.event()


class BoxDoublesCorrectForm(BoxDoublesForm):
    """The members the box doubled, ticked by name as when it was recorded."""

    def corrected(self, before: Event) -> Event:
        return self.event()


class OpeningCorrectForm(VersionedForm):
    """The opening roll's dice, as they were rolled."""

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for pid, name in players:
            self.fields[f"die_{pid}"] = forms.TypedChoiceField(
                label=name, choices=DIE_CHOICES, coerce=int, widget=forms.RadioSelect
            )

    def corrected(self, before: Event) -> Event:
        return Opening(
            rolls=tuple((pid, self.cleaned_data[f"die_{pid}"]) for pid, _n in self.players)
        )


CorrectionForm = (
    CorrectForm
    | AnswerCorrectForm
    | EndCorrectForm
    | DealCorrectForm
    | OpeningCorrectForm
    | BoxDoublesCorrectForm
)


def answer_form_for(
    before: Event, data: Any, *, names: Mapping[str, str], version: int
) -> CorrectionForm:
    """The form that corrects ``before``: the same questions its own form asked, filled in
    as it was recorded."""
    initial: dict[str, Any] = {"version": version}
    if isinstance(before, (Answer, BoxAnswers)):
        return AnswerCorrectForm(data, initial={**initial, "answer": before.answer})
    if isinstance(before, End):
        initial.update(
            winner="box" if before.box_wins else "team",
            level=Level(before.level).name.lower(),
            resigned=before.resigned,
        )
        return EndCorrectForm(data, initial=initial)
    if isinstance(before, Deal):
        initial.update(
            members=list(before.members),
            points=before.points,
            box_wins={True: "box", False: "team", None: ""}[before.box_wins],
        )
        members = [(pid, names.get(pid, pid)) for pid in names]
        return DealCorrectForm(data, members=members, initial=initial)
    if isinstance(before, BoxDoubles):
        initial["members"] = list(before.members)
        members = [(pid, names.get(pid, pid)) for pid in names]
        return BoxDoublesCorrectForm(data, members=members, initial=initial)
    if isinstance(before, Opening):
        initial.update({f"die_{pid}": die for pid, die in before.rolls})
        players = [(pid, names.get(pid, pid)) for pid, _die in before.rolls]
        return OpeningCorrectForm(data, players=players, initial=initial)
    initial["event"] = json.dumps(before.to_dict(), sort_keys=True)
    return CorrectForm(data, initial=initial)
