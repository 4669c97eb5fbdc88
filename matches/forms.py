from typing import Any, cast

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy as _

from club.forms import PlayerChoiceField
from club.models import Player

from .board.service import ACTS
from .endings import ENDINGS, cube_kept, cube_shown, ending_code
from .matfiles import mat_read_text, mat_too_large
from .models import Match, Penalty, Side
from .penalties import MAX_PENALTY
from .selectors import CUBES, GameSituation
from .services import MAX_LENGTH

RESIGNED = [(1, _("a single game")), (2, _("a gammon")), (3, _("a backgammon"))]


class MatchForm(forms.Form):
    player_a = PlayerChoiceField(Player.objects.all(), label=_("Player"))
    player_b = PlayerChoiceField(Player.objects.all(), label=_("Opponent"))
    length = forms.IntegerField(
        label=_("Match length"), min_value=1, max_value=MAX_LENGTH, initial=5
    )
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class GameForm(forms.Form):
    """A game's result: who won, the cube, how it ended (a resignation with what was given up).

    The cube is its value when the game ended; for a dropped double, the value offered
    ("doubled to 2, dropped" is 2, as a match file writes "Doubles => 2 / Drops"), and
    ``cleaned_data`` holds the cube the game was played for, half of it, which is what the
    winner scores (WBF 23; :mod:`matches.endings`).

    ``situation``: where the game stands (:func:`matches.selectors.game_situation`); only
    the cubes and endings it allows are offered: in the Crawford game the cube stays at 1
    and nobody drops a double (WBF 24). A value sent anyway is refused by the rules in
    words, in the service, and shown again as it was sent.
    """

    number = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.TypedChoiceField(
        label=_("Winner"), coerce=int, choices=Side.choices, widget=forms.RadioSelect
    )
    cube = forms.TypedChoiceField(
        label=_("Cube"),
        coerce=int,
        choices=[(v, v) for v in CUBES],
        initial=1,
        help_text=_(
            "The cube at the end of the game; for a double dropped, the value offered "
            "(“Doubles => 2”): the winner scores half, the cube before the double (WBF 23)."
        ),
    )
    result = forms.ChoiceField(label=_("Result"), choices=ENDINGS, initial="single")

    def __init__(
        self,
        *args: Any,
        match: Match | None = None,
        situation: GameSituation | None = None,
        **kwargs: Any,
    ) -> None:
        initial = dict(kwargs.pop("initial", None) or {})
        if initial.get("result") and initial.get("cube"):  # the cube as the director said it
            initial["cube"] = cube_shown(initial["result"], initial["cube"])
        if initial.get("result"):
            initial["result"] = ending_code(initial["result"], initial.get("resigned"))
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        allowed = situation if situation is not None and situation.playable else None
        self.cubes = allowed.cubes if allowed else CUBES  # else the service refuses in words
        self.endings = allowed.results if allowed else tuple(code for code, _words in ENDINGS)
        if match is not None:
            winner = cast(forms.TypedChoiceField, self.fields["winner"])
            winner.choices = [(0, str(match.player_a)), (1, str(match.player_b))]
        sent = (self.data.get("cube"), self.data.get("result")) if self.is_bound else ()
        cube = cast(forms.TypedChoiceField, self.fields["cube"])
        cube_widget = cast(forms.Select, cube.widget)
        cube_widget.choices = [(v, v) for v in CUBES if v in self.cubes or str(v) in sent]
        result_widget = cast(forms.Select, self.fields["result"].widget)
        result_widget.choices = [c for c in ENDINGS if c[0] in self.endings or c[0] in sent]
        if situation is not None and situation.crawford:
            cube.help_text = _("The Crawford game: no doubling (WBF 24).")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        ending = data.get("result") or ""
        data["resigned"] = None
        if ending.startswith("resigned-"):
            data["result"], data["resigned"] = "resignation", int(ending[-1])
        cube = data.get("cube")
        if ending == "drop" and cube is not None:
            if cube < 2 and "drop" in self.endings:  # in the Crawford game the rules refuse it
                self.add_error(
                    "cube",
                    _(
                        "A dropped double was offered at 2 or more: choose the value of the "
                        "double that was refused (WBF 23)."
                    ),
                )
            data["cube"] = max(1, cube_kept(ending, cube))
        return data


OUT_OF_DATE = _(
    "This page was out of date: nothing was saved. Open the match again to see it as it is "
    "now, then try again."
)


class VersionField(forms.IntegerField):
    """The version (of the match, the board or the report) the page was drawn from: a
    change made meanwhile is not overwritten. Required: without it no change could be
    checked, and the last of two directors would win unseen (issue 23.7); a post without
    it, or with a version that is no number, is refused as a page out of date."""

    def __init__(self) -> None:
        said = {"required": OUT_OF_DATE, "invalid": OUT_OF_DATE, "min_value": OUT_OF_DATE}
        super().__init__(min_value=0, widget=forms.HiddenInput, error_messages=said)


class VersionedForm(forms.Form):
    """A form that changes a result: it carries the version of the page it was drawn from,
    and a refusal of that hidden field is the form's own (the page was out of date)."""

    version = VersionField()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for message in self.errors.pop("version", []):
            self.add_error(None, message)
        return data


class VersionForm(VersionedForm):
    """Only the version the page was drawn from (taking a result back asks nothing else)."""


class GameCorrectionForm(GameForm, VersionedForm):
    pass


class FinalScoreForm(VersionedForm):
    score_a = forms.IntegerField(min_value=0, max_value=99)
    score_b = forms.IntegerField(min_value=0, max_value=99)
    field_order = ["score_a", "score_b", "version"]


class WalkoverForm(VersionedForm):
    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int, choices=Side.choices)
    field_order = ["winner", "version"]

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:  # no default: the director says who won
            cast(forms.ChoiceField, self.fields["winner"]).choices = [
                ("", "—"),
                (0, str(match.player_a)),
                (1, str(match.player_b)),
            ]


class RetireForm(VersionedForm):
    """Who retired in the middle of the match (no default: the director says)."""

    side = forms.TypedChoiceField(label=_("Retired"), coerce=int, choices=Side.choices)
    field_order = ["side", "version"]

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:
            cast(forms.ChoiceField, self.fields["side"]).choices = [
                ("", "—"),
                (0, str(match.player_a)),
                (1, str(match.player_b)),
            ]


def _sides(field: forms.Field, match: Match | None) -> None:
    """A menu of the match's two players by name, with no default: the director says."""
    if match is not None:
        cast(forms.ChoiceField, field).choices = [
            ("", "—"),
            (0, str(match.player_a)),
            (1, str(match.player_b)),
        ]


class PenaltyForm(VersionedForm):
    """Penalty points (tournament rules): the player penalised, how many points their
    opponent scores, and why, in words; for lateness, how many minutes late."""

    side = forms.TypedChoiceField(label=_("Penalised"), coerce=int, choices=Side.choices)
    points = forms.IntegerField(
        label=_("Points to the opponent"), min_value=1, max_value=MAX_PENALTY, initial=1
    )
    reason = forms.ChoiceField(
        label=_("Reason"), choices=Penalty.Reason.choices, initial=Penalty.Reason.DIRECTOR
    )
    note = forms.CharField(
        label=_("The reason in words"),
        max_length=300,
        required=False,
        help_text=_("Required for a director's decision, e.g. “moved before the roll”."),
    )
    minutes_late = forms.IntegerField(
        label=_("Minutes late"), min_value=0, max_value=999, required=False
    )
    field_order = ["side", "points", "reason", "note", "minutes_late", "version"]

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "penalty")  # one page, several forms: ids of its own
        super().__init__(*args, **kwargs)
        _sides(self.fields["side"], match)


class ForfeitForm(VersionedForm):
    """A forfeit recorded by hand: a flag fallen on a physical clock (or lateness)."""

    side = forms.TypedChoiceField(label=_("Forfeited"), coerce=int, choices=Side.choices)
    reason = forms.ChoiceField(
        label=_("Reason"),
        choices=[
            (Match.Forfeit.TIME.value, _("on time: the flag fell")),
            (Match.Forfeit.LATENESS.value, _("by lateness")),
        ],
        initial=Match.Forfeit.TIME.value,
    )
    field_order = ["side", "reason", "version"]

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "forfeit")
        super().__init__(*args, **kwargs)
        _sides(self.fields["side"], match)


class DiceForm(forms.Form):
    allowed = forms.BooleanField(
        label=_("Let the players enter dice rolled at the table"), required=False
    )


DIE = [(n, str(n)) for n in range(1, 7)]


class BoardActionForm(forms.Form):
    """One action on the board: which, the board's version as the sender saw it, its details."""

    action = forms.ChoiceField(choices=[(action, action) for action in ACTS])
    version = VersionField()
    die1 = forms.TypedChoiceField(
        coerce=int, choices=[("", "—"), *DIE], required=False, empty_value=None
    )
    die2 = forms.TypedChoiceField(
        coerce=int, choices=[("", "—"), *DIE], required=False, empty_value=None
    )
    source = forms.IntegerField(min_value=0, max_value=25, required=False)
    destination = forms.IntegerField(min_value=0, max_value=25, required=False)
    play = forms.CharField(label=_("Play"), max_length=120, required=False)
    level = forms.TypedChoiceField(
        coerce=int,
        choices=RESIGNED,
        required=False,
        empty_value=1,  # type: ignore[arg-type]  # the stubs want a str; the level is an int
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        dice = (data.get("die1"), data.get("die2"))
        if (dice[0] is None) != (dice[1] is None):
            raise forms.ValidationError(_("Enter both dice, or neither for the site to roll."))
        if data.get("action") == "move" and (
            data.get("source") is None or data.get("destination") is None
        ):
            raise forms.ValidationError(_("Choose a checker, then where it goes."))
        if data.get("action") in ("type", "play") and not data.get("play", "").strip():
            raise forms.ValidationError(_("Type the play, e.g. 8/5 6/5."))
        return data

    def action_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        dice = (data["die1"], data["die2"]) if data.get("die1") is not None else None
        return {
            "version": data["version"],
            "action": data["action"],
            "dice": dice,
            "source": data.get("source"),
            "destination": data.get("destination"),
            "play": data.get("play", ""),
            "level": data.get("level") or 1,
        }


class MatFileForm(forms.Form):
    """A match file, uploaded; kept in ``text`` between the preview and the confirmation."""

    file = forms.FileField(label=_("Match file (.mat)"), required=False)
    text = forms.CharField(widget=forms.HiddenInput, required=False, strip=False)
    left = forms.TypedChoiceField(
        label=_("The file's first (left) player is"),
        coerce=int,
        choices=[("", _("found by name")), (0, "A"), (1, "B")],
        required=False,
        empty_value=None,
    )

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:
            cast(forms.ChoiceField, self.fields["left"]).choices = [
                ("", _("found by name")),
                (0, str(match.player_a)),
                (1, str(match.player_b)),
            ]

    def clean(self) -> dict[str, Any]:
        """The file's text; a file or text over the limit is refused (code ``too_large``)."""
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload:
            data["text"] = mat_read_text(upload.read(settings.MATCH_FILE_MAX_BYTES + 1))
            data["filename"] = upload.name
        elif not data.get("text"):
            data["text"] = ""
        elif len(data["text"]) > settings.MATCH_FILE_MAX_BYTES:
            raise mat_too_large()
        return data

    @property
    def too_large(self) -> bool:
        return self.has_error(NON_FIELD_ERRORS, "too_large")

    @property
    def status(self) -> int:
        """The page's status: 413 for a file over the limit, 400 for another refusal."""
        return 413 if self.too_large else 400 if self.errors else 200


class SheetsForm(forms.Form):
    """Each player's score sheet as shown to the director; either may be left empty."""

    a_a = forms.IntegerField(min_value=0, max_value=99, required=False)
    a_b = forms.IntegerField(min_value=0, max_value=99, required=False)
    b_a = forms.IntegerField(min_value=0, max_value=99, required=False)
    b_b = forms.IntegerField(min_value=0, max_value=99, required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for side in ("a", "b"):
            pair = (data.get(f"{side}_a"), data.get(f"{side}_b"))
            if (pair[0] is None) != (pair[1] is None):
                raise forms.ValidationError(_("Enter both numbers of a score sheet, or neither."))
            data[f"sheet_{side}"] = None if pair[0] is None else pair
        return data


class ReportScoreForm(forms.Form):
    """Only the final score, as a player reports it."""

    score_a = forms.IntegerField(min_value=0, max_value=99)
    score_b = forms.IntegerField(min_value=0, max_value=99)


class ReportDisputeForm(VersionedForm):
    """The opponent disputes a report, and may give their own score (both numbers, or none)."""

    score_a = forms.IntegerField(min_value=0, max_value=99, required=False)
    score_b = forms.IntegerField(min_value=0, max_value=99, required=False)
    field_order = ["score_a", "score_b", "version"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if (data.get("score_a") is None) != (data.get("score_b") is None):
            raise forms.ValidationError(_("Enter both numbers of your score, or neither."))
        return data


class NotificationsForm(forms.Form):
    emails = forms.BooleanField(label=_("Send me emails about my matches"), required=False)
    language = forms.ChoiceField(label=_("Language of the emails"), choices=settings.LANGUAGES)
