"""``{% bracket_box box %}``: a bracket box's lines written in Python, the bytes the template
in ``includes/bracket_section.html`` wrote.

Why: a 64-player double elimination has 127 boxes of two lines each, on its event page and
its bracket; the template engine's work for each of their dozen values was most of the
bracket's drawing time (docs/benchmarks.md, A season). Every value is written as the template
writes a variable (``render_value_in_context``: localised and escaped);
``tests/tournaments/test_bracket_box.py`` holds this to the template it replaced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.template.base import render_value_in_context
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

if TYPE_CHECKING:
    from django.template.context import Context

    from ..queries.brackets import BracketBox, BracketLine

register = template.Library()


def _line(line: BracketLine, context: Context) -> str:
    def value(shown: object) -> str:
        return render_value_in_context(shown, context)

    if line.bye:
        inner = f"<em>{value(gettext('bye'))}</em>"
    elif line.name:
        name = value(line.name)
        inner = (
            f'\n    <span class="seed">{value(line.seed)}</span> '
            f'<span class="name" title="{name}">{name}</span>'
        )
        if line.score is not None:
            inner += f'\n    <span class="score">{value(line.score)}</span>'
        if line.won:
            inner += f' <span\n    class="visually-hidden">{value(gettext("(winner)"))}</span>'
    else:
        pending = value(line.pending)
        inner = f'<span class="pending"\n    title="{pending}">{pending}</span>'
    classes = (" won" if line.won else "") + (" bye" if line.bye else "")
    return f'\n<span class="line{classes}">\n  {inner}\n</span>\n'


@register.simple_tag(takes_context=True)
def bracket_box(context: Context, box: BracketBox) -> SafeString:
    """The box's key, length and lines (inside its link or its div)."""
    walkover = f" · {render_value_in_context(gettext('walkover'), context)}" if box.walkover else ""
    key = render_value_in_context(box.key, context)
    length = render_value_in_context(box.length, context)
    lines = "".join(_line(line, context) for line in box.lines)
    # every value escaped above, as the template escapes it
    return mark_safe(f'<span class="key">{key} · {length}{walkover}</span>\n{lines}\n')
