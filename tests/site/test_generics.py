"""Django's admin, form and field classes take the model they are for, as their type stubs
declare (``admin.ModelAdmin[Player]``), when the site runs too (config.settings calls
django_stubs_ext.monkeypatch())."""

from django import forms
from django.contrib import admin
from django.contrib.auth.forms import UserCreationForm

from club.models import Player


def test_the_classes_the_apps_name_with_their_model_are_subscriptable_and_unchanged():
    for generic in (
        admin.ModelAdmin,
        admin.TabularInline,
        forms.ModelForm,
        forms.ModelChoiceField,
        forms.ModelMultipleChoiceField,
        UserCreationForm,
    ):
        assert generic[Player] is generic  # the same class: only mypy reads the model


def test_the_apps_admin_and_forms_are_their_own_classes():
    from club.admin import PlayerAdmin
    from club.forms import PlayerForm, PlayerMultipleChoiceField

    assert issubclass(PlayerAdmin, admin.ModelAdmin)
    assert PlayerForm._meta.model is Player
    assert issubclass(PlayerMultipleChoiceField, forms.ModelMultipleChoiceField)
