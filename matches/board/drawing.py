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

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.game import Act, Game, Phase
from rules.matchid import MatchState
from rules.notation import renumbered
from rules.play import point_name
from rules.position import BAR, OFF, Position
from rules.turn import Turn

from .service import ACTS

WIDTH, HEIGHT = 410, 392
MARGIN, POINT, BAR_WIDTH, TRAY_X, TRAY_WIDTH = 10, 26, 30, 362, 40
# point tips reach 196 and 236; numbers outside the frame, a band for each name beyond them
TOP, BOTTOM, MIDDLE = 44, 346, 196
RADIUS = 12
COLOURS = ("#f4efe3", "#2b2b2b")  # player A light (white), player B dark (black)
INKS = ("#2b2b2b", "#f4efe3")
COLOUR_NAMES = (gettext_lazy("White"), gettext_lazy("Black"))  # what COLOURS look like


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
class Orientation:
    """Which way up the board is drawn: the same on every turn, whoever is on roll.

    ``bottom`` is the player (0 for A, 1 for B) whose home board is bottom right and
    ``numbers`` is the viewer when they are one of the players (see ``numbering``).
    ``table`` is for a tablet lying between the two
    players: player A sits at the bottom edge, player B across the table at the top.
    Turning the whole board for each turn (or by CSS) would leave one player reading
    everything upside down, and gives neither their own point numbers; instead each
    edge speaks to the player sitting there: the numbers along it count from that
    player's own home board (1-12 on their near side), and their name and pip count are
    written facing them, turned half a turn for the player at the top. The points far
    from a player carry the other player's numbers, as a physical board's would.
    """

    bottom: int = 0
    table: bool = False
    numbers: int | None = None

    def numbering(self, on_roll: int) -> int:
        """The player whose count numbers the points, the click targets and the typed play.

        One numbering for all three, so "Move to 18" never sits over a printed 7: the
        viewer's own when the viewer is one of the players (``numbers``), else (a director
        acting for both, a spectator, a tablet between the two) the player on roll's, the
        count in which their play is written.
        """
        return on_roll if self.numbers is None else self.numbers


@dataclass(frozen=True)
class Shape:
    """One SVG element; its numbers already written by ``svg_number``."""

    kind: str  # "point", "checker", "text", "rect", "line" (``points``, in the colour ``fill``)
    x: str = "0"
    y: str = "0"
    points: str = ""
    fill: str = ""
    text: str = ""
    size: str = "0"
    width: str = "0"
    height: str = "0"
    css: str = ""
    anchor: str = "middle"  # text-anchor: a name starts right after its swatch ("start")
    turn: str = ""  # an SVG rotate(): "180 x y" for text facing the top edge (the table view)

    @property
    def svg(self) -> SafeString:
        """The element as SVG markup, its text escaped.

        Written here rather than in the template: four kinds of element, each with its
        own attributes, made one ``{% if %}`` chain hundreds of characters long that no
        one could read; here each kind is one short, checked ``format_html`` call.
        """
        if self.kind == "rect":
            return format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"{}/>',
                self.x,
                self.y,
                self.width,
                self.height,
                self.fill,
                _css(self.css),
            )
        if self.kind == "point":
            return format_html('<polygon points="{}" fill="{}"/>', self.points, self.fill)
        if self.kind == "line":
            return format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{}/>',
                self.points,
                self.fill,
                _css(self.css),
            )
        if self.kind == "checker":
            return format_html(
                '<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="#555" stroke-width="1"/>',
                self.x,
                self.y,
                self.size,
                self.fill,
            )
        turn = format_html(' transform="rotate({})"', self.turn) if self.turn else ""
        return format_html(
            '<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="{}"{}{}>{}</text>',
            self.x,
            self.y,
            self.size,
            self.fill,
            self.anchor,
            _css(self.css),
            turn,
            self.text,
        )


def _css(css: str) -> SafeString:
    """A ``class`` attribute for the classes ``css`` names, or nothing when there are none."""
    return format_html(' class="{}"', css) if css else SafeString("")


def _rect(x: float, y: float, width: float, height: float, fill: str, css: str = "") -> Shape:
    n = svg_number
    return Shape("rect", n(x), n(y), fill=fill, width=n(width), height=n(height), css=css)


def _checker(x: float, y: float, fill: str) -> Shape:
    return Shape("checker", svg_number(x), svg_number(y), fill=fill, size=svg_number(RADIUS - 0.5))


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    fill: str,
    css: str = "",
    turned: bool = False,
    anchor: str = "middle",
) -> Shape:
    """Text centred on ``x`` (or starting at it: ``anchor`` "start"), its baseline at ``y``;
    ``turned``: upside down, about ``x`` (so it stays where it was put, readable from across
    the table; a turned "start" text runs leftwards from ``x``)."""
    n = svg_number
    turn = f"180 {n(x)} {n(y - size * 0.35)}" if turned else ""
    return Shape(
        "text", n(x), n(y), text=text, size=n(size), fill=fill, css=css, anchor=anchor, turn=turn
    )


def _triangle(x: float, base: float, tip: float, fill: str) -> Shape:
    corners = ((x, base), (x + POINT, base), (x + POINT / 2, tip))
    points = " ".join(f"{svg_number(a)},{svg_number(b)}" for a, b in corners)
    return Shape("point", points=points, fill=fill)


@dataclass(frozen=True)
class Target:
    """A place to click: a link choosing a checker, or a button moving it there.

    Its area is in the board's SVG coordinates, written by ``svg_number``; ``point`` is
    in the numbering of the player moving, whichever way up the board is drawn.
    """

    point: int
    label: str
    x: str
    y: str
    width: str
    height: str
    chosen: bool = False
    button: bool = False  # a form button (a destination) rather than a link (a checker)

    @property
    def ring(self) -> tuple[str, str, str, str]:
        """The inner of a link's two outlines (x, y, width, height): black outside, yellow
        inside, so one of them stands out 3:1 from the beige, a point or a checker."""
        x, y, width, height = (float(v) for v in (self.x, self.y, self.width, self.height))
        return tuple(svg_number(v) for v in (x + 2, y + 2, width - 4, height - 4))  # type: ignore[return-value]


@dataclass(frozen=True)
class Side:
    """One player as the board shows them: name, checker colour, pip count."""

    name: str
    colour: str  # the checkers' fill
    colour_name: str  # "White", in the visitor's language
    pips: int
    bottom: bool  # their home board is at the bottom of the drawing

    @property
    def css(self) -> str:
        return "white" if self.colour == COLOURS[0] else "black"


@dataclass(frozen=True)
class Drawing:
    view_box = f"0 0 {WIDTH} {HEIGHT}"
    shapes: tuple[Shape, ...]
    targets: tuple[Target, ...]
    title: str
    description: str
    point_labels: tuple[str, ...] = field(default=())
    sides: tuple[Side, ...] = field(default=())  # players A and B, in the page header's order
    numbering: str = ""  # whose count the point numbers are, said once (also in description)
    counter: int = 0  # the player (0 or 1) in whose count the points are numbered


def _column(point: int) -> float:
    """The left edge of a point's column, numbered from the side of the player at the bottom."""
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
    orientation: Orientation = Orientation(),
    score: tuple[int, int] | None = None,
) -> Drawing:
    """The board the way up ``orientation`` says, with what may be clicked now.

    ``state`` is the gnubg Match ID's view of the moment (cube, dice, score),
    the live game's or a log entry's; ``names`` are players A and B;
    ``position`` is the board to show (mid-turn when moves are pending), from the
    side of the player on roll; ``chosen`` the point whose checker was picked;
    ``score`` the match score (A, B) to show when it is no longer the state's (the
    game just ended and is on the score sheet).
    """
    me = state.player_on_roll
    low = orientation.bottom  # the player whose home board is bottom right
    high = 1 - low
    counter = orientation.numbering(me)  # whose count the numbers, targets and labels use
    # each player's checkers in their own numbering, A's then B's
    counts = (
        (position.on_roll, position.opponent) if me == 0 else (position.opponent, position.on_roll)
    )
    pip_counts = position.pips if me == 0 else position.pips[::-1]
    score = score if score is not None else state.score
    shapes: list[Shape] = [
        _rect(0, 0, WIDTH, HEIGHT, "#7a5230"),
        _rect(MARGIN, TOP, 6 * POINT, BOTTOM - TOP, "#e9dcc0"),
        _rect(MARGIN + 6 * POINT + BAR_WIDTH, TOP, 6 * POINT, BOTTOM - TOP, "#e9dcc0"),
        _rect(TRAY_X, TOP, TRAY_WIDTH, BOTTOM - TOP, "#5e3f24"),
    ]
    labels: list[str] = []
    for point in range(1, 25):  # drawn from the side of the player at the bottom
        x = _column(point)
        named = point if counter == low else 25 - point  # the number printed and read out
        top_row = point >= 13
        base, tip = (TOP, TOP + 130) if top_row else (BOTTOM, BOTTOM - 130)
        fill = "#a33b2b" if point % 2 else "#3c6e58"
        shapes.append(_triangle(x, base, tip, fill))
        number_y = TOP - 6 if top_row else BOTTOM + 13
        turned = orientation.table and counter == high  # facing the top player, whose count
        shapes.append(_text(x + POINT / 2, number_y, str(named), 11, "#f4efe3", "number", turned))
        count, player = 0, low
        if counts[low][point]:
            count = counts[low][point]
        elif counts[high][25 - point]:
            count, player = counts[high][25 - point], high
        colour = COLOURS[player]
        for k in range(min(count, 5)):
            cy = TOP + RADIUS + k * 2 * RADIUS if top_row else BOTTOM - RADIUS - k * 2 * RADIUS
            shapes.append(_checker(x + POINT / 2, cy, colour))
        if count > 5:
            cy = TOP + RADIUS + 8 * RADIUS if top_row else BOTTOM - RADIUS - 8 * RADIUS
            shapes.append(_text(x + POINT / 2, cy + 4, str(count), 11, INKS[player]))
        if count:
            labels.append(
                ngettext(
                    "Point %(point)s: %(count)s checker of %(name)s",
                    "Point %(point)s: %(count)s checkers of %(name)s",
                    count,
                )
                % {"point": named, "count": count, "name": names[player]}
            )
    bar_x = MARGIN + 6 * POINT + BAR_WIDTH / 2
    for player, below in ((low, True), (high, False)):
        count = counts[player][BAR]
        for k in range(min(count, 3)):
            step = 2 * RADIUS + k * 2 * RADIUS
            shapes.append(
                _checker(bar_x, MIDDLE + step if below else MIDDLE - step, COLOURS[player])
            )
        if count > 3:
            shapes.append(_text(bar_x, MIDDLE + (90 if below else -86), str(count), 11, "#fff"))
    for player in (low, high):
        if counts[player][BAR]:
            labels.append(
                _("On the bar: %(count)s of %(name)s")
                % {"count": counts[player][BAR], "name": names[player]}
            )
    tray_mid = TRAY_X + TRAY_WIDTH / 2
    for player, y in ((low, BOTTOM - 40), (high, TOP + 10)):
        for k in range(counts[player][OFF]):
            tray_y = y + 30 - k * 4 if y > MIDDLE else y + k * 4
            shapes.append(_rect(TRAY_X + 6, tray_y, TRAY_WIDTH - 12, 3.4, COLOURS[player]))
    labels.append(
        _("Borne off: %(mine)s of %(me)s, %(theirs)s of %(them)s")
        % {"mine": counts[0][OFF], "me": names[0], "theirs": counts[1][OFF], "them": names[1]}
    )
    # the cube: in the middle of the tray while centred, else on its owner's side; while a
    # double waits for its answer, turned to the value offered, on the doubler's side and
    # marked "offered" (the taker's answer decides where it goes next: WBF 23)
    cube = state.cube
    doubler = 1 - state.turn if state.double_offered else None  # the other one answers
    if doubler is not None:
        cube_y = BOTTOM - 95 if doubler == low else TOP + 70
    elif state.cube_owner is None:
        cube_y = MIDDLE - 13
    else:
        cube_y = BOTTOM - 95 if state.cube_owner == low else TOP + 70
    face = cube * 2 if doubler is not None else cube
    css = "cube offered" if doubler is not None else "cube"
    shapes.append(_rect(TRAY_X + 7, cube_y, 26, 26, "#fff", css=css))
    shapes.append(_text(tray_mid, cube_y + 18, str(64 if face == 1 else face), 13, "#000"))
    if doubler is not None:  # the word on the middle's side of the cube
        word_y = cube_y - 5 if doubler == low else cube_y + 36
        turned = orientation.table and doubler == high
        shapes.append(_text(tray_mid, word_y, _("offered"), 8, "#ffd600", "offered", turned))
    # dice
    dice_left = turn.dice_left if turn is not None else ()
    used_faces: list[int] = []
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
            # a used die is struck through, not only greyed (issue 30): its edge and stroke
            # stand out 3:1 from the board, its number 4.5:1 from the die
            shapes.append(_rect(x, MIDDLE - 12, 24, 24, "#fff", css="die used" if used else "die"))
            shapes.append(_text(x + 12, MIDDLE + 5, str(face), 15, "#595959" if used else "#000"))
            if used:
                used_faces.append(face)
                corners = f"{svg_number(x + 3)},{svg_number(MIDDLE + 9)} "
                corners += f"{svg_number(x + 21)},{svg_number(MIDDLE - 9)}"
                shapes.append(Shape("line", points=corners, fill="#2b2b2b", css="used"))
    # each player's name and pip count at their own edge, a swatch of their colour beside it
    name_x = MARGIN + 6 * POINT + BAR_WIDTH / 2
    for player, y in ((low, BOTTOM + 33), (high, TOP - 27)):
        turned = orientation.table and player == high
        label = f"{names[player]}: {pip_counts[player]}"
        # the swatch and the name centred together by an estimate of the name's width (fonts
        # differ); the name starts where the swatch ends, so a wider font cannot reach back
        # over it. Turned (the table view's top player), the pair is mirrored.
        half = min(len(label) * 3.6 + 9, name_x - MARGIN)  # about half the pair's width
        if turned:
            start = name_x + half - 18
            shapes.append(_rect(start + 6, y - 10, 12, 12, COLOURS[player], css="swatch"))
        else:
            start = name_x - half + 18
            shapes.append(_rect(start - 18, y - 10, 12, 12, COLOURS[player], css="swatch"))
        shapes.append(_text(start, y, label, 12, "#fff", "pips", turned, anchor="start"))
    length = state.match_length
    if length:  # money play (a money table's board) has no match score
        shapes.append(
            _text(tray_mid, BOTTOM + 22, f"{score[0]}–{score[1]}", 12, "#fff", css="score")
        )
        shapes.append(_text(tray_mid, BOTTOM + 36, _("to %(n)s") % {"n": length}, 10, "#fff"))
    targets: tuple[Target, ...] = ()
    if clickable and turn is not None:
        targets = _targets(turn, chosen, names[me], flipped=me != low, renumber=counter != me)
    if orientation.numbers is None:
        numbering = _("The points are numbered for %(name)s, on roll.") % {"name": names[counter]}
    else:
        numbering = _("The points are numbered for %(name)s.") % {"name": names[counter]}
    if orientation.table:
        title = _("Board for the table: %(bottom)s at the bottom, %(top)s at the top") % {
            "bottom": names[low],
            "top": names[high],
        }
    else:
        title = _("Board from the side of %(name)s") % {"name": names[low]}
    description = (
        _(
            "Score %(me)s %(my_score)s, %(them)s %(their_score)s, match to %(length)s. "
            "Pip count: %(me)s %(mine)s, %(them)s %(theirs)s. Cube at %(cube)s."
        )
        if length
        else _("Pip count: %(me)s %(mine)s, %(them)s %(theirs)s. Cube at %(cube)s.")  # money
    ) % {  # players A and B, in the page header's order
        "me": names[0],
        "them": names[1],
        "my_score": score[0],
        "their_score": score[1],
        "length": length,
        "mine": pip_counts[0],
        "theirs": pip_counts[1],
        "cube": cube,
    }
    if doubler is not None:
        description += " " + _("%(name)s offers the cube at %(value)s.") % {
            "name": names[doubler],
            "value": face,
        }
    if state.dice is not None:
        description += " " + _("Dice: %(a)s-%(b)s.") % {"a": state.dice[0], "b": state.dice[1]}
        if used_faces:
            spent = " ".join(str(face) for face in used_faces)
            description += " " + _("Dice used so far: %(dice)s.") % {"dice": spent}
    description += " " + numbering

    sides = tuple(
        Side(names[p], COLOURS[p], str(COLOUR_NAMES[p]), pip_counts[p], p == low) for p in (0, 1)
    )
    return Drawing(
        tuple(shapes), targets, title, description, tuple(labels), sides, numbering, counter
    )


def _targets(
    turn: Turn, chosen: int | None, name: str, flipped: bool, renumber: bool = False
) -> tuple[Target, ...]:
    """The places to click, in the mover's numbering; ``flipped``: the mover is at the top.

    Their labels use the printed numbers: the mover's, or (``renumber``) the other player's.
    """
    options = turn.options

    def printed(point: int) -> str:
        return renumbered(point_name(point)) if renumber else point_name(point)

    targets = []
    if chosen is not None and any(step.source == chosen for step in options):
        for step in options:
            if step.source != chosen:
                continue
            label = _("Move to %(point)s") % {"point": printed(step.destination)}
            area = _area(step.destination, flipped)
            targets.append(Target(step.destination, label, *area, button=True))
        area = _area(chosen, flipped)
        targets.append(Target(chosen, _("Choose another checker"), *area, chosen=True))
        return tuple(targets)
    for source in sorted({step.source for step in options}, reverse=True):
        label = _("Move a checker of %(name)s from %(point)s") % {
            "name": name,
            "point": printed(source),
        }
        targets.append(Target(source, label, *_area(source, flipped)))
    return tuple(targets)


def _area(point: int, flipped: bool = False) -> tuple[str, str, str, str]:
    """The clickable area of a point, the bar (25) or the bearing-off tray (0): x, y, w, h.

    ``point`` is in the mover's numbering; ``flipped`` when the mover is the player at the
    top (their point n is the bottom player's 25 - n, their bar and tray the top halves).
    """
    x: float
    if point in (BAR, OFF):
        x, w = (MARGIN + 6 * POINT, BAR_WIDTH) if point == BAR else (TRAY_X, TRAY_WIDTH)
        y, h = (TOP, MIDDLE - TOP) if flipped else (MIDDLE, BOTTOM - MIDDLE)
    else:
        drawn = 25 - point if flipped else point
        y = TOP if drawn >= 13 else BOTTOM - 140
        x, w, h = _column(drawn), POINT, 140
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
