from typing import Any, TypeVar

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.text import one_line, one_line_problem

from .csvimport import MAX_BYTES, CsvRefused, Unused, players_read, sheet_read
from .models import Player
from .selectors import ImportLine, ImportStatus, player_namesakes

M = TypeVar("M", bound=Model)


class OneLineField(forms.CharField):
    """A line of text (a club, a place, a phone): a line break or a hidden character (a
    control, a bidirectional override that turns what follows right to left, a zero-width
    space) is refused in plain words, since it breaks the lines the text is written into
    (a .mat file, an email's subject) or hides what it holds (issue 23.5).

    ``joins_lines``: a text area whose lines the service joins into one (an announcement):
    only hidden characters are refused. The services store any text made one line
    (:func:`rules.text.one_line`) for callers that are not forms.
    """

    default_error_messages = {
        "one_line": gettext_lazy(
            "One line only: in the box below, the line breaks and invisible control "
            "characters are taken out. Check it, then save again."
        ),
    }

    def __init__(self, *args: Any, joins_lines: bool = False, **kwargs: Any) -> None:
        self.joins_lines = joins_lines
        super().__init__(*args, **kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value and one_line_problem(value, joins_lines=self.joins_lines) is not None:
            raise ValidationError(self.error_messages["one_line"], code="one_line")

    def bound_data(self, data: Any, initial: Any) -> Any:
        """The text shown again with a refusal: as it would be saved, so what was hidden in
        it shows by its absence ("Anna \u202eissoR" looked like "Anna Rossi")."""
        data = super().bound_data(data, initial)
        return one_line(data) if isinstance(data, str) else data


class NameField(OneLineField):
    """A name: one line, refused in words that say so."""

    default_error_messages = {
        "one_line": gettext_lazy(
            "A name is one line: in the box below, its line breaks and invisible control "
            "characters are taken out. Check it, then save again."
        ),
    }


# a player's details as the forms take them (the e-mail address has its own field and check)
PLAYER_FIELD_CLASSES = {
    "name": NameField,
    "club": OneLineField,
    "phone": OneLineField,
}  # the country: django-countries' list of countries, by name in the visitor's language


class PlayerChoiceField(forms.ModelChoiceField[Player]):
    """A player picker that tells namesakes apart: club and id beside the name."""

    def label_from_instance(self, obj: Player) -> str:
        return obj.label


class RowsChoiceField(forms.ModelMultipleChoiceField[M]):
    """Rows chosen by their ids; an id no key can be is refused before the database is
    asked (SQLite fails on a number beyond 64 bits, where Django checks only single ids)."""

    def clean(self, value: Any) -> Any:
        for key in value if isinstance(value, (list, tuple)) else ():
            if key not in self.empty_values and row_id(key) is None:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": key},
                )
        return super().clean(value)


class PlayerMultipleChoiceField(RowsChoiceField[Player]):
    def label_from_instance(self, obj: Player) -> str:
        return obj.label


class PlayerForm(forms.ModelForm[Player]):
    """A player's details. A name already registered asks first: it may be the same person."""

    same_name = forms.BooleanField(
        label=gettext_lazy("Register another player of the same name"), required=False
    )

    class Meta:
        model = Player
        fields = ["name", "club", "country", "email", "phone"]
        field_classes = PLAYER_FIELD_CLASSES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["same_name"].widget = forms.HiddenInput()  # shown when a namesake is found
        self.fields["country"].widget.attrs["class"] = "country"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what clean() returns: ModelForm's, then ours
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


class PlayersFileForm(forms.Form):
    """A CSV file of players, uploaded; after the preview, its text signed in ``checked``.

    The text travels to the confirmation signed and compressed (:mod:`django.core.signing`):
    nothing is kept on the server in between, a changed text is refused, and the
    confirmation checks every row again.
    """

    SALT = "club.players_import"
    KEPT = 24 * 60 * 60  # a preview may be confirmed for a day

    file = forms.FileField(
        label=gettext_lazy("Players file (.csv)"),
        required=False,
        widget=forms.FileInput(attrs={"accept": ".csv,text/csv"}),
    )
    checked = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean() returns
        upload = data.get("file")
        if upload:
            try:
                text, sheet = players_read(upload.read(MAX_BYTES + 1))
            except CsvRefused as refused:
                raise ValidationError(csv_refusal(refused)) from refused
            data["checked"] = signing.dumps(text, salt=self.SALT, compress=True)
        elif data.get("checked"):
            try:
                text = signing.loads(data["checked"], salt=self.SALT, max_age=self.KEPT)
                sheet = sheet_read(text)
            except (signing.BadSignature, CsvRefused) as error:
                raise ValidationError(
                    _("The file you checked has expired or was changed: choose it again.")
                ) from error
        else:
            raise ValidationError(_("Choose a players file."))
        data["rows"], data["unused"] = sheet.rows, sheet.unused
        return data


def csv_refusal(refused: CsvRefused) -> str:
    """Why a players' file cannot be read, in the visitor's language."""
    params = refused.params
    if refused.code == "too-large":
        return _("The file is too large for a players file (over %(megabytes)s MB).") % params
    if refused.code == "not-text":
        return _(
            "This is not a CSV file: save the sheet as CSV (comma or semicolon separated) and "
            "choose it again."
        )
    if refused.code == "no-name-column":
        return (
            _(
                "The first row names no “name” column (it reads “%(found)s”): the columns are "
                "name (or first name and last name), club, country, email and phone, with "
                "their names in the first row."
            )
            % params
        )
    if refused.code == "malformed":
        return _("The file cannot be read as CSV at line %(line)s (a quote left open?).") % params
    return _("The file holds no players: a first row naming the columns, then a row each.")


IMPORT_FIELDS = {
    "name": gettext_lazy("name"),
    "club": gettext_lazy("club"),
    "country": gettext_lazy("country"),
    "email": gettext_lazy("email"),
    "phone": gettext_lazy("phone"),
}


def import_line_said(line: ImportLine) -> str:
    """What the import does with a row, in the visitor's language."""
    if line.status == ImportStatus.NEW:
        return _("will be registered")
    if line.status == ImportStatus.NAMESAKE:
        if not line.namesakes:
            return _("will be registered; another row of the file has the same name")
        return _("will be registered, though the name is already registered: %(players)s") % {
            "players": ", ".join(p.label for p in line.namesakes)
        }
    if line.status == ImportStatus.REGISTERED:
        return _("left out: already registered as %(players)s") % {
            "players": ", ".join(p.label for p in line.namesakes)
        }
    if line.status == ImportStatus.REPEATED:
        return _("left out: the same player as an earlier row")
    if line.problem == "no-name":
        return _("left out: no name")
    if line.problem == "bad-email":
        return _("left out: “%(email)s” is not an email address") % line.params
    if line.problem == "bad-country":
        return (
            _(
                "left out: “%(country)s” is not a country the site knows (write its name in "
                "English, Italian or German, or its two-letter code: IT, CH)"
            )
            % line.params
        )
    if line.problem == "too-long":
        return _("left out: the %(field)s is over %(limit)s characters") % {
            "field": IMPORT_FIELDS[line.params["field"]],
            "limit": line.params["limit"],
        }
    return _("left out")


def columns_unused_said(unused: tuple[Unused, ...]) -> str:
    """The columns of a players' file the import leaves aside, named in the visitor's
    language ("These columns were not used: “Rating”, column 7 (no heading)."), or ""."""
    if not unused:
        return ""
    names = [
        f"“{column.heading}”"
        if column.heading
        else _("column %(number)s (no heading)") % {"number": column.number}
        for column in unused
    ]
    return _("These columns were not used: %(columns)s.") % {"columns": ", ".join(names)}


# a person's own details: the browser may fill them in (WCAG 1.3.5)
OWN_AUTOCOMPLETE = {"name": "name", "club": "organization", "email": "email", "phone": "tel"}


def own_autocomplete(form: forms.BaseForm) -> None:
    for name, token in OWN_AUTOCOMPLETE.items():
        if name in form.fields:
            form.fields[name].widget.attrs["autocomplete"] = token


class ProfileForm(forms.ModelForm[Player]):
    """What a player changes of their own record: name, club, email and phone."""

    class Meta:
        model = Player
        fields = ["name", "club", "email", "phone"]
        field_classes = PLAYER_FIELD_CLASSES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        own_autocomplete(self)


class AccountForm(UserCreationForm[User]):
    """A new sign-in: a user name and a password twice, checked by the site's validators."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _(
            "What you sign in with: letters, digits and @ . + - _ only."
        )


class SignUpForm(AccountForm):
    """A visitor who asks to enter a tournament makes an account and becomes a player."""

    name = NameField(label=gettext_lazy("Your name"), max_length=120)
    club = OneLineField(label=gettext_lazy("Club"), max_length=120, required=False)
    email = forms.EmailField(label=gettext_lazy("Email"), required=False)
    phone = OneLineField(label=gettext_lazy("Phone"), max_length=40, required=False)

    field_order = ["name", "club", "email", "phone", "username", "password1", "password2"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        own_autocomplete(self)


def form_errors_said(form: forms.BaseForm) -> list[str]:
    """Each refusal of a form in words, a field's with the field's label first ("Player
    arriving late: This field is required."): for a page that cannot show the form itself."""
    said: list[str] = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = field.label if field is not None and field.label else ""
        said += [f"{label}: {error}" if label else str(error) for error in errors]
    return said


ROW_ID_MAX = 2**63 - 1  # the largest key a row has (a signed 64-bit integer)


def row_id(value: object) -> int | None:
    """A row's id as a request sends it (a choice, a button's value): a whole number a key
    can be, or None for anything else ("abc", "", "0.5", a NUL byte, a number too large for
    the database to compare, which SQLite refuses with an error)."""
    text = str(value).strip() if value is not None else ""
    if not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if 0 < number <= ROW_ID_MAX else None
