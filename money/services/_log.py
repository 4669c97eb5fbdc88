"""What the table services share: the table locked, its log read and replayed through the
engine, the engine's refusals in the visitor's words. For this package only."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from club.actors import Actor
from club.audit import actor_name, audit_for_subject, audit_sentence
from club.words import say
from rules.chouette import describe
from rules.chouette.events import Event, Opening, from_dict

from ..log import event_players, player_names
from ..models import Table, TableEvent


class TableChanged(ValidationError):
    """The table changed after the page was drawn (another phone acted first): nothing was
    saved, and the message says what changed."""


def locked(table: Table, version: int | None = None) -> Table:
    """The table's row, locked for the rest of the transaction; ``version``: the version the
    page was drawn from (None: a caller with no page, which acts on what it sees)."""
    row = Table.objects.select_for_update().get(pk=table.pk)
    if version is not None and version != row.version:
        raise TableChanged(
            _(
                "The table changed after you opened it: %(change)s Nothing you sent was saved; "
                "here is the table as it is now."
            )
            % {"change": last_change(row)}
        )
    return row


def last_change(table: Table) -> str:
    """The table's latest change as a sentence: its audit entry, or the log's last line
    when that is newer (a double or an answer is in the log alone)."""
    entry = audit_for_subject(subject=table).order_by("-at", "-id").first()
    line = table.events.select_related("author__player").order_by("-seq").first()
    if line is not None and (entry is None or line.created > entry.at):
        return _("%(who)s recorded “%(said)s”.") % {
            "who": actor_name(line.author) or _("The site"),
            "said": say(describe(from_dict(line.data), player_names(table))),
        }
    return audit_sentence(entry) if entry is not None else ""


def refuse_closed(table: Table) -> None:
    if table.closed is not None:
        raise ValidationError(
            _("The table “%(table)s” is closed: nothing more is recorded.") % {"table": table.name}
        )


def bump(table: Table) -> None:
    """Every write changes the version: a page drawn before it is out of date."""
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)
    table.version += 1


def refuse_unseated(table: Table, event: Event) -> None:
    """Every player an event names is seated at the table: a phone cannot bring in someone
    who never sat down (they join by the table's code first)."""
    seated = {str(pk) for pk in table.seats.values_list("player_id", flat=True)}
    strangers = sorted(event_players(event) - seated)
    if strangers:
        raise ValidationError(
            _("Only the players seated at “%(table)s” play there: sit down with its code first.")
            % {"table": table.name}
        )


def refuse_partial_opening(table: Table, opening: Opening) -> None:
    """Everyone seated rolls for the order (Galore 3.1): a player who sits out rests after."""
    seated = {str(pk): name for pk, name in table.seats.values_list("player_id", "player__name")}
    missing = sorted(name for pk, name in seated.items() if pk not in event_players(opening))
    if missing:
        raise ValidationError(
            _("Everyone seated rolls for the order (Galore 3.1): %(players)s did not.")
            % {"players": ", ".join(missing)}
        )


def append(table: Table, event: Event, user: Actor) -> TableEvent:
    """The event as the next line of the log."""
    last = table.events.order_by("-seq").values_list("seq", flat=True).first() or 0
    return TableEvent.objects.create(
        table=table, seq=last + 1, data=event.to_dict(), author=author(user)
    )


def author(user: Actor) -> User | None:
    """The account acting, or None for the site itself."""
    return user if isinstance(user, User) else None
