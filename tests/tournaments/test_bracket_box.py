"""A bracket box written in Python ({% bracket_box %}, tournaments/templatetags/brackets.py)
is the bytes the template it replaced wrote, whatever its lines: names to escape, byes,
places still pending, scores, winners, a walkover, in English and Italian."""

from types import SimpleNamespace

from django.template import Context, Template
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from matches.models import Match
from tournaments.queries.brackets import BracketBox, BracketLine

# the box as includes/bracket_box.html wrote it before it was written in Python
TEMPLATE = """{% load i18n %}<span class="key">{{ box.key }} · {{ box.length }}{% if box.walkover %} · {% translate "walkover" %}{% endif %}</span>
{% for line in box.lines %}
<span class="line{% if line.won %} won{% endif %}{% if line.bye %} bye{% endif %}">
  {% if line.bye %}<em>{% translate "bye" %}</em>{% elif line.name %}
    <span class="seed">{{ line.seed }}</span> <span class="name" title="{{ line.name }}">{{ line.name }}</span>{% if line.score is not None %}
    <span class="score">{{ line.score }}</span>{% endif %}{% if line.won %} <span
    class="visually-hidden">{% translate "(winner)" %}</span>{% endif %}{% else %}<span class="pending"
    title="{{ line.pending }}">{{ line.pending }}</span>{% endif %}
</span>
{% endfor %}
"""  # noqa: E501 (the template's own lines)

lines = st.builds(
    BracketLine,
    name=st.text(max_size=12),
    seed=st.one_of(st.none(), st.integers(1, 5000)),
    score=st.one_of(st.none(), st.integers(0, 2500)),
    won=st.booleans(),
    bye=st.booleans(),
    pending=st.text(max_size=12),
)
matches = st.one_of(
    st.none(),
    st.sampled_from(list(Match.Status)).map(lambda status: SimpleNamespace(status=status)),
)
boxes = st.builds(
    BracketBox,
    key=st.text(max_size=8),
    lines=st.tuples(lines, lines),
    match=matches,
    length=st.integers(1, 2500),
)


@given(box=boxes, language=st.sampled_from(["en", "it"]))
def test_a_box_in_python_is_the_template_s_bytes(box, language):
    with translation.override(language):
        fast = Template("{% load brackets %}{% bracket_box box %}").render(Context({"box": box}))
        slow = Template(TEMPLATE).render(Context({"box": box}))
    assert fast == slow
