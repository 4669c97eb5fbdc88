from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Player
from .selectors import player_namesakes


class PlayerChoiceField(forms.ModelChoiceField):
    """A player picker that tells namesakes apart: club and id beside the name."""

    def label_from_instance(self, obj: Player) -> str:
        return obj.label


class PlayerMultipleChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return obj.label


class PlayerForm(forms.ModelForm):
    """A player's details. A name already registered asks first: it may be the same person."""

    same_name = forms.BooleanField(
        label=_("Register another player of the same name"), required=False
    )

    class Meta:
        model = Player
        fields = ["name", "club", "country", "email", "phone"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["same_name"].widget = forms.HiddenInput()  # shown when a namesake is found

    def clean(self):
        data = super().clean()
        namesakes = player_namesakes(name=data.get("name") or "", exclude=self.instance.pk)
        if namesakes and not data.pop("same_name", False):
            self.fields["same_name"].widget = forms.CheckboxInput()
            self.add_error(
                "same_name",
                _(
                    "Already registered: %(players)s. Check it is not the same person, then tick "
                    "the box to register another player of that name."
                )
                % {"players": ", ".join(p.label for p in namesakes)},
            )
        data.pop("same_name", None)
        return data
