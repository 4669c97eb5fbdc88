from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player

from .models import CUBE_VALUES, Game, Side

RESIGNED = [(1, _("a single game")), (2, _("a gammon")), (3, _("a backgammon"))]


class MatchForm(forms.Form):
    player_a = forms.ModelChoiceField(Player.objects.all(), label=_("Player"))
    player_b = forms.ModelChoiceField(Player.objects.all(), label=_("Opponent"))
    length = forms.IntegerField(label=_("Match length"), min_value=1, max_value=99, initial=5)
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class GameForm(forms.Form):
    number = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.TypedChoiceField(
        label=_("Winner"), coerce=int, choices=Side.choices, widget=forms.RadioSelect
    )
    cube = forms.TypedChoiceField(
        label=_("Cube"), coerce=int, choices=[(v, v) for v in CUBE_VALUES[:8]], initial=1
    )
    result = forms.ChoiceField(label=_("Result"), choices=Game.Result.choices, initial="single")
    resigned = forms.TypedChoiceField(
        label=_("resigned"),
        coerce=int,
        choices=[("", "—"), *RESIGNED],
        required=False,
        empty_value=None,
    )

    def __init__(self, *args, match=None, **kwargs):
        super().__init__(*args, **kwargs)
        if match is not None:
            self.fields["winner"].choices = [(0, str(match.player_a)), (1, str(match.player_b))]


class FinalScoreForm(forms.Form):
    score_a = forms.IntegerField(min_value=0, max_value=99)
    score_b = forms.IntegerField(min_value=0, max_value=99)


class WalkoverForm(forms.Form):
    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int, choices=Side.choices)

    def __init__(self, *args, match=None, **kwargs):
        super().__init__(*args, **kwargs)
        if match is not None:
            self.fields["winner"].choices = [(0, str(match.player_a)), (1, str(match.player_b))]
