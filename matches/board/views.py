"""The board: play a game on the site, one action a request.

Without JavaScript every click is a link (choosing a checker) or a form (an
action), and the page is redrawn; with the small script in static/board.js the
same requests return only the board, which replaces the old one in place.
"""

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from club.policy import (
    board_sides,
    can_change_match,
    can_type_dice,
    match_scope,
    require,
    sign_in_required,
)

from ..forms import RESIGNED, BoardActionForm
from ..models import BoardGame, Match, MatchClock
from ..selectors import ScoreSheet, match_list, match_score_sheet
from .clock import ClockStopped, board_clock, board_clock_pause, now_ms
from .drawing import Orientation, board_buttons, board_drawing
from .said import last_action, pending_moves
from .service import (
    BoardChanged,
    board_game_act,
    board_game_current,
    board_game_start,
    board_state,
    board_waiting,
)
from .timing import board_clock_start, board_flag_check


def _fragment(request: HttpRequest) -> bool:
    return bool(request.headers.get("X-Board") == "1")


VIEWS = ("mine", "a", "b", "table")  # ?view=: which way up the board is drawn on this device


def requested_view(request: HttpRequest) -> str:
    """The orientation the request asks for ('' when none: the default, "mine").

    The device keeps its choice (static/board.js, in localStorage) and adds it to every
    request; links and forms of a board drawn for a choice carry it on without JavaScript.
    """
    view = request.GET.get("view") or request.POST.get("view") or ""
    return view if view in VIEWS else ""


def board_orientation(view: str, sides: frozenset[int]) -> Orientation:
    """The board's orientation for a ``view`` of ``VIEWS``.

    "mine" (the default): the side of a signed-in player of the match at the bottom; for
    anyone else (a director acts for both, a spectator for neither) player A's, the first
    name of the page header. The board no longer turns with each turn: a device keeps one.
    Its points are numbered in one count whatever the view, the one the click targets and
    a typed play use: a player's own, anyone else's the player on roll's (issue 24).
    """
    numbers = min(sides) if len(sides) == 1 else None
    if view == "table":
        return Orientation(bottom=0, table=True, numbers=numbers)
    if view in ("a", "b"):
        return Orientation(bottom=VIEWS.index(view) - 1, numbers=numbers)
    return Orientation(bottom=0 if numbers is None else numbers, numbers=numbers)


def _view_choices(
    view: str, sides: frozenset[int], names: tuple[str, str]
) -> list[tuple[str, str, bool]]:
    """The orientation control's choices: (view, label, chosen), "mine" for a player only."""
    shown = view or "mine"
    choices: list[tuple[str, str]] = []
    if len(sides) == 1:
        choices.append(("mine", _("My side at the bottom")))
    elif shown == "mine":
        shown = "a"  # the same drawing: player A at the bottom
    for view_key, name in zip(("a", "b"), names, strict=True):
        choices.append((view_key, _("%(name)s at the bottom") % {"name": name}))
    choices.append(("table", _("Table view")))
    return [(key, label, key == shown) for key, label in choices]


def refused_play(request: HttpRequest, error: str) -> str | None:
    """The text of a typed play that was refused, to give back for correction; else None."""
    if error and request.POST.get("action") == "type":
        return request.POST.get("play", "")
    return None


def _to_board(pk: int, view: str) -> HttpResponse:
    """Back to the board after a form without JavaScript, drawn the same way up."""
    return redirect(reverse("board", args=[pk]) + (f"?view={view}" if view else ""))


def _board(
    request: HttpRequest,
    match: Match,
    *,
    error: str = "",
    status: int = 200,
    chosen: int | None = None,
    at: int | None = None,
    typed: str | None = None,
) -> HttpResponse:
    board_game = board_game_current(match=match)
    sheet = match_score_sheet(match=match)
    sides = board_sides(request.user, match)
    names = (str(match.player_a), str(match.player_b))
    view = requested_view(request)
    context = {
        "match": match,
        "sheet": sheet,
        "view": view,
        "view_query": f"?view={view}" if view else "",
        "view_choices": _view_choices(view, sides, names),
        "error": error,
        "typed": typed,  # a refused typed play, given back to be corrected
        "sides": sides,
        "levels": RESIGNED,
        "may_type_dice": can_type_dice(request.user, match),
        "physical_dice": match.physical_dice or match_scope(match).physical_dice,
        "clock": board_clock(match=match, at=now_ms() if at is None else at),
        "may_pause": can_change_match(request.user, match),
    }
    state = None
    if board_game is not None and not _abandoned(match, sheet, board_game):
        state = board_state(board_game=board_game)
    if state is not None:
        game = state.game
        if chosen is None and request.method == "GET":
            chosen = _int(request.GET.get("from"))
        drawing = board_drawing(
            state=game.match_state,
            position=state.position,
            names=names,
            turn=state.turn,
            chosen=chosen,
            clickable=bool(sides) and game.acting in sides and not state.recorded,
            orientation=board_orientation(view, sides),
            score=sheet.score,  # the sheet's: a game that just ended is counted
        )
        context.update(
            board_game=board_game,
            state=state,
            game=game,
            waiting=board_waiting(game, match),
            on_roll=names[game.turn],
            acting=names[game.acting],
            result_winner=names[game.result.winner] if game.result else "",
            drawing=drawing,
            last_action=last_action(game.log, names, drawing.counter),
            buttons=board_buttons(game, sides, state.turn, recorded=state.recorded),
            chosen=chosen,
            pending=pending_moves(state.turn, game.turn, drawing.counter),
        )
    in_progress = state is not None and not state.recorded
    context["can_start"] = (
        bool(sides) and not sheet.over and match.final_score_a is None and not in_progress
    )
    context["next_number"] = len(sheet.rows) + 1
    context["next_game"] = sheet.next_game
    template = "includes/board.html" if _fragment(request) else "board.html"
    return render(request, template, context, status=status)


def _abandoned(match: Match, sheet: ScoreSheet, board_game: BoardGame) -> bool:
    """A game left unfinished when the match was decided another way: a flag fell during
    it (a forfeit on time). Its log stays; the board shows the match's result instead."""
    return match.final_score_a is not None and not any(
        row.game.number == board_game.number for row in sheet.rows
    )


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _flag_checked(pk: int, at: int) -> Match:
    """The match, after the flag was looked at: every request of the board does it first,
    so a fallen flag costs what it costs on the next request, whoever sends it."""
    match = get_object_or_404(match_list(), pk=pk)
    if board_flag_check(match=match, at=at):
        match = match_list().get(pk=pk)  # read again: the flag has just decided something
    return match


@require_GET
def board(request: HttpRequest, pk: int) -> HttpResponse:
    at = now_ms()
    match = _flag_checked(pk, at)
    since = _int(request.GET.get("since"))
    if since is not None and _fragment(request):
        current = board_game_current(match=match)
        clock = MatchClock.objects.filter(match=match).values_list("version", flat=True).first()
        if (
            current is not None
            and current.version == since
            and request.GET.get("n") == str(current.number)
            and request.GET.get("s") == match_score_sheet(match=match).leader_text
            and request.GET.get("c", "") == ("" if clock is None else str(clock))
        ):  # nothing moved, no game was recorded by hand, the clocks were not touched
            return HttpResponse(status=204)  # the script keeps the board it has
    return _board(request, match, at=at)


@sign_in_required
@require_POST
def board_start(request: HttpRequest, pk: int) -> HttpResponse:
    match = _flag_checked(pk, now_ms())
    try:
        board_game_start(match=match, user=request.user)
    except ValidationError as error:
        return _board(request, match, error=error.messages[0], status=400)
    if _fragment(request):
        return _board(request, match_list().get(pk=pk))
    return _to_board(pk, requested_view(request))


@sign_in_required
@require_POST
def board_act(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    at = now_ms()
    _flag_checked(pk, at)
    board_game = get_object_or_404(
        BoardGame.objects.select_related("match__player_a", "match__player_b"),
        match_id=pk,
        number=number,
    )
    form = BoardActionForm(request.POST)
    error, status, chosen = "", 200, None
    if not form.is_valid():
        error, status = " ".join(str(m) for e in form.errors.values() for m in e), 400
    else:
        try:
            board_game_act(board_game=board_game, user=request.user, at=at, **form.action_kwargs())
        except ClockStopped as stopped:
            error, status = stopped.messages[0], 409
            _flag_checked(pk, at)  # fallen meanwhile: recorded now
        except BoardChanged as changed:
            error, status = changed.messages[0], 409
        except ValidationError as refused:
            error, status = refused.messages[0], 400
            if form.cleaned_data["action"] == "move":
                chosen = form.cleaned_data.get("source")
    if error or _fragment(request):
        match = match_list().get(pk=pk)  # read after the action: a game may have just ended
        typed = refused_play(request, error)
        return _board(request, match, error=error, status=status, chosen=chosen, typed=typed)
    return _to_board(pk, requested_view(request))


CLOCK_ACTIONS = ("start", "pause", "resume")


@sign_in_required
@require_POST
def board_clocks(request: HttpRequest, pk: int) -> HttpResponse:
    """The clocks' buttons: a player starts allowed clocks, a director pauses and resumes."""
    at = now_ms()
    match = _flag_checked(pk, at)
    require(bool(board_sides(request.user, match)))  # the services ask again, per action
    action = request.POST.get("clock", "")
    error, status = "", 200
    try:
        if action == "start":
            board_clock_start(match=match, user=request.user, at=at)
        elif action in ("pause", "resume"):
            board_clock_pause(match=match, user=request.user, at=at, pause=action == "pause")
        else:
            error, status = _("Unknown action."), 400
    except ValidationError as refused:
        error, status = refused.messages[0], 400
    if error or _fragment(request):
        return _board(request, match_list().get(pk=pk), error=error, status=status, at=at)
    return _to_board(pk, requested_view(request))
