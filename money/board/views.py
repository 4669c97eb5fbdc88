"""A money table's board: the game played on the site, one action a request.

The page is the matches board's (its drawing, its SVG and players' includes, static/board.js):
without JavaScript each click is a link or a form and the page is redrawn; with the script
the same requests return only the board area, swapped in place, and a poll every few
seconds asks whether the table's version moved (204 when it did not). Beside the board, the
cubes: every member's on the box's phone, and the buttons each user may press now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from club.policy import can_record_at, sign_in_required
from matches.board.drawing import board_buttons, board_drawing
from matches.board.said import last_action, pending_moves
from matches.board.views import board_orientation, refused_play, requested_view
from matches.forms import RESIGNED
from rules.chouette import (
    Answer,
    BoxAnswers,
    BoxDoubles,
    CubeMode,
    Event,
    MemberDoubles,
    Raccoon,
    StartGame,
)
from rules.game import Phase

from ..models import Table
from .forms import MoneyBoardForm
from .service import BoardChanged, Seat, board_waiting, money_board, money_board_act, user_seat
from .state import (
    BOX,
    BOX_ID,
    TEAM,
    MoneyBoard,
    Moves,
    drawn_state,
    ending_level,
    parse_moves,
    shown_cube,
    write_moves,
)

CUBE_ACTS = frozenset({"double", "take", "drop"})  # the game's own cube: the chouette's here


def _fragment(request: HttpRequest) -> bool:
    return bool(request.headers.get("X-Board") == "1")


# --- the mover's checker moves, kept per device until the play is confirmed ------------------


def _pending_key(table: Table) -> str:
    return f"money-board-{table.pk}"


def _pending(request: HttpRequest, table: Table) -> Moves:
    """The moves this device made and has not confirmed, if the table has not moved since."""
    kept = request.session.get(_pending_key(table))
    if not isinstance(kept, dict) or kept.get("version") != table.version:
        return ()
    try:
        return parse_moves(str(kept.get("moves", "")))
    except ValueError:
        return ()


def _keep_pending(request: HttpRequest, table: Table, moves: Moves) -> None:
    key = _pending_key(table)
    if moves:
        request.session[key] = {"version": table.version, "moves": write_moves(moves)}
    elif key in request.session:
        del request.session[key]


# --- what the page shows -----------------------------------------------------------------


@dataclass(frozen=True)
class CubeRow:
    """One member's cube in the panel (Galore 3.3, 3.5)."""

    member: str
    name: str
    captain: bool
    value: int
    owner: str  # "box", "member" or "" (centred)
    offered_by: str  # "box", the member, or ""
    awaiting: bool  # this member (or the box, for them) must answer now
    mine: bool

    @property
    def face(self) -> int:
        """The number the cube shows: the value offered while a double waits."""
        return self.value * 2 if self.offered_by else self.value


@dataclass(frozen=True)
class Answering:
    """A cube someone must answer: whose, and the answers allowed."""

    member: str
    name: str
    answers: tuple[str, ...]
    value: int  # the cube offered


def _names(table: Table) -> dict[str, str]:
    return {str(seat.player_id): str(seat.player) for seat in table.seats.select_related("player")}


def _sides(seat: Seat, board: MoneyBoard) -> frozenset[int]:
    """The sides of the board the user plays: the box's, the team's (any member), or both."""
    if seat.director:
        return frozenset({BOX, TEAM})
    if seat.player is None:
        return frozenset()
    if seat.player in board.roles[:2]:  # the partner shares the box's side (Galore 3.6)
        return frozenset({BOX})
    return frozenset({TEAM})  # a member of the team, or resting: the team's side


def _acting_sides(seat: Seat, board: MoneyBoard) -> frozenset[int]:
    """The sides the user moves the checkers for: the box's, or the team's as acting captain."""
    return frozenset(side for side in (BOX, TEAM) if seat.is_(board.side_player(side)))


def _context(
    request: HttpRequest, table: Table, board: MoneyBoard, seat: Seat, chosen: int | None
) -> dict[str, Any]:
    names = _names(table)
    game, live = board.game, board.live
    allowed = board.chouette.allowed()
    box = board.box or ""
    view = requested_view(request)
    context: dict[str, Any] = {
        "table": table,
        "board": board,
        "names": names,
        "seat": seat,
        "may_start": (seat.director or seat.player is not None)
        and live is None
        and any(isinstance(event, StartGame) for event in allowed),
        "levels": RESIGNED,
        "view": view,
        "view_query": f"?view={view}" if view else "",
        "board_url": reverse("money:table_board", args=[table.pk]),
    }
    if game is None or board.number is None:
        return context
    sides = _sides(seat, board)
    acting = _acting_sides(seat, board)
    shown_box, captain = board.roles[0], board.roles[2] or ""
    box = shown_box or box
    players = (names.get(box, box), names.get(captain, captain))
    member = seat.player if seat.player in (live.cubes if live else {}) else None
    cube = shown_cube(board, member)
    buttons: frozenset[str] = frozenset()
    if board.playing:
        buttons = board_buttons(game, acting, board.turn) - CUBE_ACTS
        if board.awaiting:
            buttons -= {"opening", "roll", "resign"}
    on_roll_free = board.playing and game.phase is Phase.ROLL and not board.awaiting
    box_doubles = sorted(
        {m for e in allowed if isinstance(e, BoxDoubles) for m in e.members}
        if on_roll_free and game.turn == BOX and seat.is_(box)
        else set()
    )
    member_doubles = [
        (e.member, names.get(e.member, e.member))
        for e in allowed
        if isinstance(e, MemberDoubles)
        and on_roll_free
        and game.turn == TEAM
        and seat.is_(e.member)
    ]
    drawing = board_drawing(
        state=drawn_state(board, cube),
        position=board.position,  # type: ignore[arg-type]  # a game is on the board
        names=players,
        turn=board.turn,
        chosen=chosen,
        clickable=board.playing and game.acting in acting and not board.awaiting,
        orientation=board_orientation(view, sides),
    )
    context.update(
        view_choices=_view_choices(view, sides, players),
        game=game,
        waiting=board_waiting(board, names),
        acting_name=players[game.acting] if board.playing else "",
        drawing=drawing,
        last_action=last_action(game.log, players, drawing.counter),
        buttons=buttons,
        chosen=chosen,
        pending=pending_moves(board.turn, game.turn, drawing.counter),
        cubes=_cube_rows(board, names, seat),
        box_doubles=[(m, names.get(m, m)) for m in box_doubles],
        single_cube=board.chouette.settings.cubes is CubeMode.SINGLE,
        double_value=(cube.value * 2) if cube is not None else 2,
        member_doubles=member_doubles,
        answers=_answering(allowed, names, board, seat, Answer),
        box_answers=_answering(allowed, names, board, seat, BoxAnswers) if seat.is_(box) else [],
        raccoons=[
            (e.member, names.get(e.member, e.member))
            for e in allowed
            if isinstance(e, Raccoon) and seat.is_(box)
        ],
        result=_result(board, players),
    )
    return context


def _answering(
    allowed: tuple[Event, ...],
    names: dict[str, str],
    board: MoneyBoard,
    seat: Seat,
    kind: type[Answer] | type[BoxAnswers],
) -> list[Answering]:
    """The cubes this user must answer now: their own (Answer), or the box's (BoxAnswers)."""
    found: dict[str, list[str]] = {}
    for event in allowed:
        mine = isinstance(event, BoxAnswers) or seat.is_(getattr(event, "member", None))
        if isinstance(event, (Answer, BoxAnswers)) and isinstance(event, kind) and mine:
            found.setdefault(event.member, []).append(event.answer)
    cubes = board.live.cubes if board.live is not None else {}
    return [
        Answering(member, names.get(member, member), tuple(answers), cubes[member].value * 2)
        for member, answers in found.items()
        if member in cubes
    ]


def _cube_rows(board: MoneyBoard, names: dict[str, str], seat: Seat) -> list[CubeRow]:
    live = board.live
    if live is None:
        return []
    return [
        CubeRow(
            member=member,
            name=names.get(member, member),
            captain=member == live.acting_captain,
            value=cube.value,
            owner=cube.owner or "",
            offered_by=cube.offered_by or "",
            awaiting=member in live.awaiting
            or (BOX_ID in live.awaiting and cube.offered_by not in (None, BOX_ID)),
            mine=member == seat.player,
        )
        for member, cube in live.cubes.items()
        if member in live.playing
    ]


def _result(board: MoneyBoard, players: tuple[str, str]) -> str:
    """How the game on the board ended: who won at what level, or that it is over (ended
    at the table: every member dropped, or recorded by taps)."""
    game = board.game
    level = ending_level(game) if game is not None else None
    if game is None or game.result is None or level is None:
        return _("this game is over")
    named = [_("a single game"), _("a gammon"), _("a backgammon")][int(level) - 1]
    if game.result.winner == BOX:
        return _("The box, %(name)s, wins %(level)s") % {"name": players[0], "level": named}
    return _("The team wins %(level)s") % {"level": named}


def _view_choices(
    view: str, sides: frozenset[int], names: tuple[str, str]
) -> list[tuple[str, str, bool]]:
    """Which way up: the viewer's own side, the box's, the team's, or the table view."""
    shown = view or "mine"
    choices: list[tuple[str, str]] = []
    if len(sides) == 1:
        choices.append(("mine", _("My side at the bottom")))
    elif shown == "mine":
        shown = "a"
    choices.append(("a", _("The box at the bottom")))
    choices.append(("b", _("The team at the bottom")))
    choices.append(("table", _("Table view")))
    return [(key, label, key == shown) for key, label in choices]


def _board(
    request: HttpRequest,
    table: Table,
    *,
    error: str = "",
    status: int = 200,
    chosen: int | None = None,
    typed: str | None = None,
) -> HttpResponse:
    seat = user_seat(request.user, table)
    board = money_board(table=table, pending=_pending(request, table))
    if chosen is None and request.method == "GET":
        chosen = _int(request.GET.get("from"))
    context = _context(request, table, board, seat, chosen)
    context.update(error=error, typed=typed)  # a refused typed play, to be corrected
    template = "money/board_area.html" if _fragment(request) else "money/board.html"
    return render(request, template, context, status=status)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


@sign_in_required  # a table's pages are for the signed in, as the table's own page
@require_GET
def table_board(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk)
    since = _int(request.GET.get("since"))
    if since is not None and _fragment(request) and since == table.version:
        return HttpResponse(status=204)  # nothing moved: the script keeps the board it has
    return _board(request, table)


@sign_in_required
@require_POST
def table_board_act(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk)
    if not can_record_at(request.user, table):
        raise PermissionDenied  # a stranger to the table: nothing here is theirs to do
    seated = tuple(str(player) for player in table.seats.values_list("player_id", flat=True))
    form = MoneyBoardForm(request.POST, players=seated)
    error, status, chosen = "", 200, None
    if not form.is_valid():
        error, status = " ".join(str(m) for e in form.errors.values() for m in e), 400
    else:
        try:
            pending = money_board_act(
                user=request.user,
                table=table,
                pending=_pending(request, table),
                **form.action_kwargs(),
            )[1]
            table.refresh_from_db()
            _keep_pending(request, table, pending)
        except PermissionDenied:
            error, status = _("It is not for you to do that now."), 403
        except BoardChanged as changed:
            error, status = changed.messages[0], 409
        except ValidationError as refused:
            error, status = refused.messages[0], 400
            if form.cleaned_data["action"] == "move":
                chosen = form.cleaned_data.get("source")
        table.refresh_from_db()
    if error or _fragment(request):
        return _board(
            request,
            table,
            error=error,
            status=status,
            chosen=chosen,
            typed=refused_play(request, error),
        )
    view = requested_view(request)
    url = reverse("money:table_board", args=[pk]) + (f"?view={view}" if view else "")
    return redirect(url)
