"""The board's one form: an action, the table's version as the sender saw it, its details."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.forms import RESIGNED

from .service import ACTIONS, ANSWERS


class MoneyBoardForm(forms.Form):
    action = forms.ChoiceField(choices=[(action, action) for action in ACTIONS])
    version = forms.IntegerField(min_value=0)
    source = forms.IntegerField(min_value=0, max_value=25, required=False)
    destination = forms.IntegerField(min_value=0, max_value=25, required=False)
    play = forms.CharField(label=_("Play"), max_length=120, required=False)
    level = forms.TypedChoiceField(
        coerce=int,
        choices=RESIGNED,
        required=False,
        empty_value=1,  # type: ignore[arg-type]  # the stubs want a str; the level is an int
    )
    member = forms.CharField(max_length=20, required=False)
    members = forms.MultipleChoiceField(required=False)  # choices: the table's members
    answer = forms.ChoiceField(choices=[("", "")] + [(a, a) for a in ANSWERS], required=False)

    def __init__(self, *args: Any, players: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].choices = [(p, p) for p in players]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("action") == "move" and (
            data.get("source") is None or data.get("destination") is None
        ):
            raise forms.ValidationError(_("Choose a checker, then where it goes."))
        if data.get("action") in ("type", "play") and not data.get("play", "").strip():
            raise forms.ValidationError(_("Type the play, e.g. 8/5 6/5."))
        if data.get("action") in ("answer", "box-answer") and not data.get("answer"):
            raise forms.ValidationError(_("Answer take, drop or beaver."))
        return data

    def action_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "version": data["version"],
            "action": data["action"],
            "source": data.get("source"),
            "destination": data.get("destination"),
            "play": data.get("play", ""),
            "level": data.get("level") or 1,
            "members": tuple(data.get("members") or ()),
            "member": data.get("member") or "",
            "answer": data.get("answer") or "",
        }
