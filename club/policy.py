"""Who may change what: the one place that decides.

Views ask it before calling a service, and every service asks it again at its
entry, so a view that forgets cannot write. The answers:

- staff may change anything;
- a tournament is run by its directors: they change its events, entries and
  matches, and no one else does (a director of another tournament reads);
- a match outside any tournament, a new tournament and the players' register
  belong to the ``Directors`` group;
- a player whose account is linked acts on the board for their own side only, changes
  their own name, club, email and phone, checks themselves in while check-in is open,
  asks to enter a tournament's events when its directors let players ask, and, where the
  tournament lets the players report results, reports their match's result and confirms
  or disputes the opponent's report;
- a player belongs to the directors of the tournaments they play in: those directors
  (and staff) change the player's details and issue or revoke their invitation; a player
  in no tournament belongs to the ``Directors`` group, who keep the register. Linking an
  account to a player outright is staff's (the admin); everyone else's way is the
  player's invitation, which an account that directs or is staff opens only after
  saying it is that player, and never for a player of a tournament it directs.

This app sits below matches and tournaments, so it does not know where a match is
played, where a player plays or who directs what: the tournaments app registers finders
at start-up that tell it (:func:`register_match_scope`, :func:`register_player_scope`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeAlias, TypeGuard

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.signals import request_finished, request_started
from django.db.models import Exists, OuterRef
from django.http import HttpRequest

from rules.chouette.events import StartGame

from .actors import SYSTEM as SYSTEM  # the site acting; services import it with the policy
from .actors import Actor
from .models import Player


@dataclass(frozen=True)
class MatchScope:
    """What the policy needs to know about where a match is played, and nothing else: a
    tournament's other settings (how results are reported, the match's label and table)
    reach the match's pages from the tournaments app through :mod:`matches.places`."""

    tournament_id: int | None = None
    directors: frozenset[int] = frozenset()  # user ids of the tournament's directors
    physical_dice: bool = False  # the tournament lets players enter dice rolled at the table
    # the players report results and the opponent confirms them (else directors enter them)
    player_reports: bool = False


@dataclass(frozen=True)
class PlayerScope:
    """What the policy needs to know about where a player plays."""

    entered: bool = False  # entered in (or playing a match of) some tournament
    directors: frozenset[int] = frozenset()  # user ids directing any of those tournaments


OUTSIDE = MatchScope()
NOWHERE = PlayerScope()
MatchScopeFinder: TypeAlias = Callable[[Any], MatchScope | None]
_scope_finders: list[MatchScopeFinder] = []
_player_finders: list[Callable[[Player], PlayerScope]] = []
_directing_finders: list[Callable[[User], bool]] = []

# The scopes found during the request being served, by match id (None: not serving a
# request, so nothing is kept). A page asks the policy about one match several times (may
# they change it, which sides of the board, may they type the dice): the first answer
# serves the rest of the request, and the next request asks afresh (a request that changes
# a tournament's directors or settings asks nothing of its matches after). Only a match
# found in a tournament is kept: one outside any may be placed in a tournament by the
# request itself (a draw creates a match, then places it). Kept here, by id, rather than on
# the match object: every copy of the match read in the request shares the answer, and
# none carries it into another request. A context variable, so each thread or task serving
# a request has its own; where none is being served (a command, a test calling the policy)
# nothing is kept and each question is asked afresh.
_request_scopes: ContextVar[dict[int, MatchScope] | None] = ContextVar(
    "request_scopes", default=None
)


def _request_began(**kwargs: Any) -> None:
    _request_scopes.set({})


def _request_ended(**kwargs: Any) -> None:
    _request_scopes.set(None)


request_started.connect(_request_began, dispatch_uid="club.policy.request_scopes")
request_finished.connect(_request_ended, dispatch_uid="club.policy.request_scopes")


def register_match_scope(finder: MatchScopeFinder) -> None:
    """A higher app says where a match is played (None: not one of its matches)."""
    if finder not in _scope_finders:
        _scope_finders.append(finder)


def match_scope(match: Any) -> MatchScope:
    """Where the match is played, as far as the policy needs (kept for the rest of the
    request: see ``_request_scopes``)."""
    kept = _request_scopes.get()
    if kept is not None and match.pk in kept:
        return kept[match.pk]
    scope = OUTSIDE
    for finder in _scope_finders:
        found = finder(match)
        if found is not None:
            scope = found
            break
    if kept is not None and scope.tournament_id is not None:
        kept[match.pk] = scope
    return scope


def register_player_scope(
    finder: Callable[[Player], PlayerScope], directing: Callable[[User], bool]
) -> None:
    """A higher app says where a player plays (``finder``) and whether an account directs
    any tournament (``directing``)."""
    if finder not in _player_finders:
        _player_finders.append(finder)
    if directing not in _directing_finders:
        _directing_finders.append(directing)


def player_scope(player: Player) -> PlayerScope:
    """The tournaments the player plays in, as far as the policy needs (not kept: a player
    entered meanwhile counts at once)."""
    for finder in _player_finders:
        found = finder(player)
        if found.entered:
            return found
    return NOWHERE


def _person(user: Actor | None) -> TypeGuard[User]:
    """A person signed in, whose account is active (not a visitor, not the site)."""
    return bool(user is not None and user.is_authenticated and user.is_active)


def _staff(user: Actor | None) -> TypeGuard[User]:
    return _person(user) and (user.is_staff or user.is_superuser)


def in_directors_group(user: Actor) -> bool:
    if not _person(user):
        return False
    return _staff(user) or user.groups.filter(name=settings.DIRECTORS_GROUP).exists()


def can_direct(user: Actor, tournament: Any) -> bool:
    """May change this tournament, its events, entries and matches."""
    if user is SYSTEM or _staff(user):
        return True
    return _person(user) and tournament.directors.filter(pk=user.pk).exists()


def can_change_match(user: Actor, match: Any) -> bool:
    """May record, correct or settle this match's result, import its log, open its disputes."""
    if user is SYSTEM or _staff(user):
        return True
    if not _person(user):
        return False
    scope = match_scope(match)
    if scope.tournament_id is None:
        return in_directors_group(user)
    return user.pk in scope.directors


def header_standing(user: Actor) -> tuple[bool, int | None]:
    """For every page's header, in one query: may the user create (:func:`can_create`), and
    the id of the player linked to their account (None: not a player)."""
    if not _person(user):
        return user is SYSTEM, None
    grouped = Group.objects.filter(user=OuterRef("pk"), name=settings.DIRECTORS_GROUP)
    row = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .annotate(grouped=Exists(grouped))
        .values_list("grouped", "player__id")
        .first()
    )
    if row is None:
        return _staff(user), None
    return _staff(user) or row[0], row[1]


def can_create(user: Actor) -> bool:
    """May register players, create a tournament or a match outside any tournament."""
    return user is SYSTEM or in_directors_group(user)


def directs(user: Actor) -> bool:
    """Staff, a member of the Directors group, or a director of some tournament: an account
    whose rights reach other people's matches, so never silently linked to a player."""
    if not _person(user):
        return False
    return in_directors_group(user) or any(finder(user) for finder in _directing_finders)


def can_change_player(user: Actor, player: Player) -> bool:
    """May change a player's details and issue or revoke their invitation: staff, the
    directors of a tournament they play in, and, for a player in no tournament, the
    Directors group. A director of another tournament may not: a player's invitation makes
    an account theirs, with their side on the board and their results to report."""
    if user is SYSTEM or _staff(user):
        return True
    if not _person(user):
        return False
    scope = player_scope(player)
    if scope.entered:
        return user.pk in scope.directors
    return in_directors_group(user)


def link_refusal(user: Actor, player: Player) -> str | None:
    """Why an account may not be linked to this player by their invitation (None: it may,
    though an account that :func:`directs` is asked to say it is the player first): the
    account directs a tournament the player plays in, so it would judge its own matches."""
    if _person(user) and user.pk in player_scope(player).directors:
        return "directs_players_tournament"
    return None


def board_sides(user: Actor, match: Any) -> frozenset[int]:
    """The sides a user may act for on the board: both for the match's directors, else their own."""
    if can_change_match(user, match):
        return frozenset({0, 1})
    if not _person(user):
        return frozenset()
    return frozenset(
        side
        for side, player_user in enumerate((match.player_a.user_id, match.player_b.user_id))
        if player_user == user.pk
    )


def player_side(user: Actor, match: Any) -> int | None:
    """The side of the match the user plays (their account linked to the player), or None."""
    if not _person(user):
        return None
    for side, player_user in enumerate((match.player_a.user_id, match.player_b.user_id)):
        if player_user == user.pk:
            return side
    return None


def can_report_result(user: Actor, match: Any) -> bool:
    """May report the result of this match from their phone: a player of it, linked to their
    account, in a tournament whose results the players report, the match not yet decided."""
    if not match_scope(match).player_reports or match.decided:
        return False
    return player_side(user, match) is not None


def can_answer_report(user: Actor, match: Any, reporter_side: int) -> bool:
    """May confirm or dispute a player's report: the other player of the match."""
    side = player_side(user, match)
    return side is not None and side != reporter_side and match_scope(match).player_reports


def can_type_dice(user: Actor, match: Any) -> bool:
    """Dice rolled at the table are entered by a director, or by the players when allowed."""
    if can_change_match(user, match):
        return True
    allowed = match.physical_dice or match_scope(match).physical_dice
    return allowed and bool(board_sides(user, match))


# --- players acting for themselves --------------------------------------------------------

# what a player may change of their own record (the rating, the country and the account
# link stay with the directors)
PLAYER_OWN_FIELDS = frozenset({"name", "club", "email", "phone"})


def own_player(user: Actor) -> Player | None:
    """The player linked to this account, or None."""
    if not _person(user):
        return None
    try:
        return user.player
    except AttributeError:  # no player linked (the reverse one-to-one raises a subclass)
        return None


def player_fields_allowed(user: Actor, player: Player) -> frozenset[str]:
    """The details of ``player`` this user may change (``account``: the sign-in linked)."""
    if user is SYSTEM or _staff(user):
        return frozenset({*PLAYER_OWN_FIELDS, "country", "account"})
    if can_change_player(user, player):
        return frozenset({*PLAYER_OWN_FIELDS, "country"})
    if _person(user) and player.user_id is not None and player.user_id == user.pk:
        return PLAYER_OWN_FIELDS
    return frozenset()


def can_invite(user: Actor, player: Player) -> bool:
    """May issue or revoke a player's invitation to make their own account."""
    return can_change_player(user, player)


def is_own_entry(user: Actor, entry: Any) -> bool:
    """The entry is the signed-in player's own."""
    return _person(user) and entry.player.user_id is not None and entry.player.user_id == user.pk


def can_check_in(user: Actor, entry: Any) -> bool:
    """May check this entry in: its tournament's directors, or the entered player themselves
    while check-in is open (the event not drawn, the entry not withdrawn)."""
    if can_direct(user, entry.event.tournament):
        return True
    if not is_own_entry(user, entry):
        return False
    return not entry.event.drawn and entry.status != "withdrawn"


def can_ask_to_enter(user: Actor, event: Any) -> bool:
    """May ask to enter an event: a player signed in, while its tournament lets players ask
    and the draw is not made (whether they are entered already is the service's refusal)."""
    return own_player(user) is not None and event.tournament.open_entry and not event.drawn


def directors_nameable(user: Actor) -> Any:
    """The accounts ``user`` may make directors of a tournament they create or import (a
    queryset): the members of the ``Directors`` group, as the tournament form offers them;
    staff and the site itself may name any account; anyone else, none."""
    accounts = get_user_model().objects.all()
    if user is SYSTEM or _staff(user):
        return accounts
    if not can_create(user):
        return accounts.none()
    return accounts.filter(groups__name=settings.DIRECTORS_GROUP).distinct()


# --- money sessions and chouettes (the money app's tables) -------------------------------
# A table is no tournament's: its players run it themselves, and the Directors group (and
# staff) may step in. This app sits below money, so a table is ``Any`` here: its ``seats``,
# ``created_by_id`` and ``events`` are all the policy reads.


def can_start_table(user: Actor) -> bool:
    """May start a money session or a chouette: a player signed in (a friendly game needs
    no director), or a director."""
    return user is SYSTEM or own_player(user) is not None or in_directors_group(user)


def seated(user: Actor, table: Any) -> bool:
    """The account is linked to a player seated at this table."""
    return _person(user) and table.seats.filter(player__user_id=user.pk).exists()


def can_record_at(user: Actor, table: Any) -> bool:
    """May record the table's games (doubles, answers, deals, results, undo of the last
    game): a player seated at it, whoever started it, or a director."""
    if user is SYSTEM or in_directors_group(user):
        return True
    if not _person(user):
        return False
    return table.created_by_id == user.pk or seated(user, table)


def can_join_table(user: Actor, table: Any, player: Player) -> bool:
    """May seat this player at the table: the player themself (their account, with the
    table's code), or someone who records at the table bringing a guest."""
    if _person(user) and player.user_id is not None and player.user_id == user.pk:
        return True
    return can_record_at(user, table)


def can_correct_table(user: Actor, table: Any) -> bool:
    """May replace an event of the table's log (audited, before and after): a director
    (the Directors group, or staff), never the players themselves."""
    return user is SYSTEM or in_directors_group(user)


def can_set_stake(user: Actor, table: Any, player: Player) -> bool:
    """May set a player's stake a point: the player themself before the table's first game
    (club practice: a stake is agreed before play, never changed after a loss), or a
    director at any time."""
    if can_correct_table(user, table):
        return True
    if not _person(user) or player.user_id is None or player.user_id != user.pk:
        return False
    return not table_games_started(table)


GAME_START_KIND = StartGame.kind  # a game's start, as a table's log stores it


def table_games_started(table: Any) -> bool:
    """A game has begun at the table (its log holds a game's start)."""
    return bool(table.events.filter(data__kind=GAME_START_KIND).exists())


# --- background work (jobs) ------------------------------------------------------------

# a kind of work may let others follow it too (a tournament's directors, its export's);
# jobs registers the question at start-up, this module cannot import it
JobWatchers = Callable[[Actor, Any], bool]
_job_watchers: JobWatchers | None = None


def register_job_watchers(watchers: JobWatchers) -> None:
    global _job_watchers
    _job_watchers = watchers


def can_see_job(user: Actor, job: Any) -> bool:
    """Who started the work, staff, and whom its kind names: follow it, try it again, take
    its file; nobody else (what it carries may be a director's)."""
    if not _person(user):
        return False
    if _staff(user) or (job.created_by_id is not None and job.created_by_id == user.pk):
        return True
    return _job_watchers is not None and _job_watchers(user, job)


# --- refusals, for views and services ---------------------------------------------------


def require(allowed: bool) -> None:
    """Refuse (403) what the policy does not allow."""
    if not allowed:
        raise PermissionDenied


def sign_in_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Anonymous visitors are sent to sign in; the view then asks the policy its question.

    The permission test walks every URL and finds the views that change things by
    this mark.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    wrapper.changes = True  # type: ignore[attr-defined]
    return wrapper
