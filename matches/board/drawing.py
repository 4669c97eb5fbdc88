"""The board as a drawing: SVG shapes, the labels a screen reader reads, and where to click.

Everything a template needs is worked out here, in plain Python, so the
template only repeats shapes. The board is drawn from the side of the player
on roll (their home board bottom right, as gnubg and a real table show it):
points 1-6 bottom right, 7-12 bottom left, 13-18 top left, 19-24 top right.
The clickable places are part of the SVG, in its own coordinates: a link
(an SVG ``<a>``) to choose a checker, a form button (in a ``<foreignObject>``)
to move it, so they work without JavaScript and need no inline style (which a
Content-Security-Policy would block).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.game import Act, Game, Phase
from rules.matchid import MatchState
from rules.play import point_name
from rules.position import BAR, OFF, Position
from rules.turn import Turn

from .service import ACTS

WIDTH, HEIGHT = 410, 366
MARGIN, POINT, BAR_WIDTH, TRAY_X, TRAY_WIDTH = 10, 26, 30, 362, 40
TOP, BOTTOM, MIDDLE = 20, 320, 170  # point tips reach 150 and 190; numbers outside the frame
RADIUS = 12
COLOURS = ("#f4efe3", "#2b2b2b")  # player A light, player B dark
INKS = ("#2b2b2b", "#f4efe3")


def svg_number(value: float) -> str:
    """A number as SVG and CSS read it, whatever the language: ``11.5``, never ``11,5``.

    Templates localise numbers (Italian writes a decimal comma, which SVG reads as a
    separator), so every number a drawing holds is written here, as a string, and a
    template has nothing left to localise.

    >>> svg_number(339.0), svg_number(11.5), svg_number(3.4), svg_number(100 / 3)
    ('339', '11.5', '3.4', '33.33')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Shape:
    """One SVG element; its numbers already written by ``svg_number``."""

    kind: str  # "point", "checker", "text", "rect"
    x: str = "0"
    y: str = "0"
    points: str = ""
    fill: str = ""
    text: str = ""
    size: str = "0"
    width: str = "0"
    height: str = "0"
    css: str = ""


def _rect(x: float, y: float, width: float, height: float, fill: str, css: str = "") -> Shape:
    n = svg_number
    return Shape("rect", n(x), n(y), fill=fill, width=n(width), height=n(height), css=css)


def _checker(x: float, y: float, fill: str) -> Shape:
    return Shape("checker", svg_number(x), svg_number(y), fill=fill, size=svg_number(RADIUS - 0.5))


def _text(x: float, y: float, text: str, size: float, fill: str, css: str = "") -> Shape:
    n = svg_number
    return Shape("text", n(x), n(y), text=text, size=n(size), fill=fill, css=css)


def _triangle(x: float, base: float, tip: float, fill: str) -> Shape:
    corners = ((x, base), (x + POINT, base), (x + POINT / 2, tip))
    points = " ".join(f"{svg_number(a)},{svg_number(b)}" for a, b in corners)
    return Shape("point", points=points, fill=fill)


@dataclass(frozen=True)
class Target:
    """A place to click: a link choosing a checker, or a button moving it there.

    Its area is in the board's SVG coordinates, written by ``svg_number``.
    """

    point: int
    label: str
    x: str
    y: str
    width: str
    height: str
    chosen: bool = False
    button: bool = False  # a form button (a destination) rather than a link (a checker)


@dataclass(frozen=True)
class Drawing:
    view_box = f"0 0 {WIDTH} {HEIGHT}"
    shapes: tuple[Shape, ...]
    targets: tuple[Target, ...]
    title: str
    description: str
    point_labels: tuple[str, ...] = field(default=())


def _column(point: int) -> float:
    """The left edge of a point's column, from the side of the player on roll."""
    if point <= 12:
        index = point - 1  # 0..11 from the right
        if index < 6:
            return MARGIN + 6 * POINT + BAR_WIDTH + (5 - index) * POINT
        return MARGIN + (11 - index) * POINT
    index = point - 13
    if index < 6:
        return MARGIN + index * POINT
    return MARGIN + 6 * POINT + BAR_WIDTH + (index - 6) * POINT


def board_drawing(
    *,
    state: MatchState,
    position: Position,
    names: tuple[str, str],
    turn: Turn | None = None,
    chosen: int | None = None,
    clickable: bool = False,
) -> Drawing:
    """The board from the side of the player on roll, with what may be clicked now.

    ``state`` is the gnubg Match ID's view of the moment (cube, dice, score),
    the live game's or a log entry's; ``names`` are players A and B;
    ``position`` is the board to show (mid-turn when moves are pending);
    ``chosen`` the point whose checker was picked.
    """
    me = state.player_on_roll
    mine, theirs = position.on_roll, position.opponent
    my_name, their_name = names[me], names[1 - me]
    colours = (COLOURS[me], COLOURS[1 - me])
    shapes: list[Shape] = [
        _rect(0, 0, WIDTH, HEIGHT, "#7a5230"),
        _rect(MARGIN, TOP, 6 * POINT, BOTTOM - TOP, "#e9dcc0"),
        _rect(MARGIN + 6 * POINT + BAR_WIDTH, TOP, 6 * POINT, BOTTOM - TOP, "#e9dcc0"),
        _rect(TRAY_X, TOP, TRAY_WIDTH, BOTTOM - TOP, "#5e3f24"),
    ]
    labels: list[str] = []
    for point in range(1, 25):
        x = _column(point)
        top_row = point >= 13
        base, tip = (TOP, TOP + 130) if top_row else (BOTTOM, BOTTOM - 130)
        fill = "#a33b2b" if point % 2 else "#3c6e58"
        shapes.append(_triangle(x, base, tip, fill))
        number_y = TOP - 6 if top_row else BOTTOM + 13
        shapes.append(_text(x + POINT / 2, number_y, str(point), 11, "#f4efe3", css="number"))
        count, colour, owner = 0, "", ""
        if mine[point]:
            count, colour, owner = mine[point], colours[0], my_name
        elif theirs[25 - point]:
            count, colour, owner = theirs[25 - point], colours[1], their_name
        for k in range(min(count, 5)):
            cy = TOP + RADIUS + k * 2 * RADIUS if top_row else BOTTOM - RADIUS - k * 2 * RADIUS
            shapes.append(_checker(x + POINT / 2, cy, colour))
        if count > 5:
            cy = TOP + RADIUS + 8 * RADIUS if top_row else BOTTOM - RADIUS - 8 * RADIUS
            ink = INKS[me] if colour == colours[0] else INKS[1 - me]
            shapes.append(_text(x + POINT / 2, cy + 4, str(count), 11, ink))
        if count:
            labels.append(
                ngettext(
                    "Point %(point)s: %(count)s checker of %(name)s",
                    "Point %(point)s: %(count)s checkers of %(name)s",
                    count,
                )
                % {"point": point, "count": count, "name": owner}
            )
    bar_x = MARGIN + 6 * POINT + BAR_WIDTH / 2
    for count, colour, below in ((mine[BAR], colours[0], True), (theirs[BAR], colours[1], False)):
        for k in range(min(count, 3)):
            cy = (
                MIDDLE + 2 * RADIUS + k * 2 * RADIUS
                if below
                else MIDDLE - 2 * RADIUS - k * 2 * RADIUS
            )
            shapes.append(_checker(bar_x, cy, colour))
        if count > 3:
            shapes.append(_text(bar_x, MIDDLE + (90 if below else -86), str(count), 11, "#fff"))
    if mine[BAR]:
        labels.append(
            _("On the bar: %(count)s of %(name)s") % {"count": mine[BAR], "name": my_name}
        )
    if theirs[BAR]:
        labels.append(
            _("On the bar: %(count)s of %(name)s") % {"count": theirs[BAR], "name": their_name}
        )
    tray_mid = TRAY_X + TRAY_WIDTH / 2
    for count, colour, y in (
        (mine[OFF], colours[0], BOTTOM - 40),
        (theirs[OFF], colours[1], TOP + 10),
    ):
        for k in range(count):
            tray_y = y + 30 - k * 4 if y > MIDDLE else y + k * 4
            shapes.append(_rect(TRAY_X + 6, tray_y, TRAY_WIDTH - 12, 3.4, colour))
    labels.append(
        _("Borne off: %(mine)s of %(me)s, %(theirs)s of %(them)s")
        % {"mine": mine[OFF], "me": my_name, "theirs": theirs[OFF], "them": their_name}
    )
    # the cube: in the middle of the tray while centred, else on its owner's side
    cube = state.cube
    if state.cube_owner is None:
        cube_y = MIDDLE - 13
    else:
        cube_y = BOTTOM - 95 if state.cube_owner == me else TOP + 70
    shapes.append(_rect(TRAY_X + 7, cube_y, 26, 26, "#fff", css="cube"))
    shapes.append(_text(tray_mid, cube_y + 18, str(64 if cube == 1 else cube), 13, "#000"))
    # dice
    dice_left = turn.dice_left if turn is not None else ()
    if state.dice is not None:
        first, second = state.dice
        faces = [first, second] if first != second else [first] * 4
        unused = list(dice_left) if turn is not None else list(faces)
        dx = MARGIN + 6 * POINT + BAR_WIDTH + 6 * POINT / 2 - (len(faces) * 30) / 2
        for i, face in enumerate(faces):
            used = face not in unused
            if not used:
                unused.remove(face)
            x = dx + i * 30
            shapes.append(_rect(x, MIDDLE - 12, 24, 24, "#ddd" if used else "#fff", css="die"))
            shapes.append(_text(x + 12, MIDDLE + 5, str(face), 15, "#999" if used else "#000"))
    pips = position.pips
    shapes.append(
        _text(MARGIN + 3 * POINT, BOTTOM + 30, f"{my_name}: {pips[0]}", 12, "#fff", "pips")
    )
    score = state.score
    score_text = f"{score[me]}–{score[1 - me]}"
    shapes.append(_text(tray_mid, BOTTOM + 22, score_text, 12, "#fff", css="score"))
    length = state.match_length
    shapes.append(_text(tray_mid, BOTTOM + 36, _("to %(n)s") % {"n": length}, 10, "#fff"))
    their_pips = f"{their_name}: {pips[1]}"
    shapes.append(
        _text(MARGIN + 9 * POINT + BAR_WIDTH, BOTTOM + 30, their_pips, 12, "#fff", "pips")
    )
    targets = _targets(turn, chosen, names[me]) if clickable and turn is not None else ()
    title = _("Board from the side of %(name)s") % {"name": my_name}
    description = _(
        "Score %(me)s %(my_score)s, %(them)s %(their_score)s, match to %(length)s. "
        "Pip count: %(me)s %(mine)s, %(them)s %(theirs)s. Cube at %(cube)s."
    ) % {
        "me": my_name,
        "them": their_name,
        "my_score": score[me],
        "their_score": score[1 - me],
        "length": length,
        "mine": pips[0],
        "theirs": pips[1],
        "cube": cube,
    }
    if state.dice is not None:
        description += " " + _("Dice: %(a)s-%(b)s.") % {"a": state.dice[0], "b": state.dice[1]}
    return Drawing(tuple(shapes), targets, title, description, tuple(labels))


def _targets(turn: Turn, chosen: int | None, name: str) -> tuple[Target, ...]:
    options = turn.options
    targets = []
    if chosen is not None and any(step.source == chosen for step in options):
        for step in options:
            if step.source != chosen:
                continue
            label = _("Move to %(point)s") % {"point": point_name(step.destination)}
            targets.append(Target(step.destination, label, *_area(step.destination), button=True))
        targets.append(Target(chosen, _("Choose another checker"), *_area(chosen), chosen=True))
        return tuple(targets)
    for source in sorted({step.source for step in options}, reverse=True):
        label = _("Move a checker of %(name)s from %(point)s") % {
            "name": name,
            "point": point_name(source),
        }
        targets.append(Target(source, label, *_area(source)))
    return tuple(targets)


def _area(point: int) -> tuple[str, str, str, str]:
    """The clickable area of a point, the bar (25) or the bearing-off tray (0): x, y, w, h."""
    if point == BAR:
        x, y, w, h = MARGIN + 6 * POINT, MIDDLE, BAR_WIDTH, BOTTOM - MIDDLE
    elif point == OFF:
        x, y, w, h = TRAY_X, MIDDLE, TRAY_WIDTH, BOTTOM - MIDDLE
    elif point >= 13:
        x, y, w, h = _column(point), TOP, POINT, 140
    else:
        x, y, w, h = _column(point), BOTTOM - 140, POINT, 140
    return svg_number(x), svg_number(y), svg_number(w), svg_number(h)


def board_buttons(
    game: Game, sides: frozenset[int], turn: Turn | None, *, recorded: bool = False
) -> frozenset[str]:
    """The action buttons to show: what the engine allows now, for a side the user may act for."""
    if game.over or recorded or not sides:
        return frozenset()
    available = game.available()
    if game.phase is not Phase.OPENING and game.acting not in sides:
        return frozenset()
    shown = {name for name, act in ACTS.items() if act in available and act is not Act.PLAY}
    if Act.PLAY in available and turn is not None:
        shown.add("play")
        if turn.moves:
            shown.add("undo")
        if turn.play is not None:
            shown.add("confirm")
    return frozenset(shown)
