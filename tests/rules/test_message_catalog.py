"""The message catalog and the code that uses it agree: read from the source, and replayed.

Static: every error the engine builds passes a Message whose key is in the catalog
with exactly the template's parameters, and every template is marked for the
translators. Dynamic: every problem that replaying the corpus (and broken copies
of it) produces renders through a translator that knows only the catalog.
"""

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import rules
import rules.errors
from rules.errors import IllegalActionError, IllegalPlayError, MatFileError, RulesError
from rules.match import GameContext, GameResult, MatchRules, Outcome, check_result
from rules.matfile import read_mat
from rules.messages import CATALOG, Message
from rules.notation import resolve_play
from rules.replay import ProblemKind, replay_match
from rules.turn import Turn
from tests.rules.helpers import StrictTranslator, board, mutated
from tests.rules.test_replay import CORPUS

RULES = Path(rules.__file__).parent
MODULES = sorted(RULES.glob("*.py"))
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
ERRORS = {
    name
    for name, value in vars(rules.errors).items()
    if isinstance(value, type) and issubclass(value, RulesError)
}


def placeholders(template):
    forms = template if isinstance(template, tuple) else (template,)
    return set().union(*(PLACEHOLDER.findall(form) for form in forms))


def possible_keys(node):
    """The keys a Message call's first argument can take, read from the source; None if unknown."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = possible_keys(node.body), possible_keys(node.orelse)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        keys = [possible_keys(value) for value in node.value.values]
        return None if None in keys else set().union(*keys)
    return None


def calls(tree, names):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in names:
                yield name, node


def where(path, node):
    return f"{path.name}:{node.lineno}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_error_is_built_from_a_message(path):
    """raise SomeError(Message("key", ...)) or raise SomeError(a_name_bound_to_a_message)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = []
    for _, call in calls(tree, ERRORS):
        first = call.args[0] if call.args else None
        built = isinstance(first, ast.Call) and getattr(first.func, "id", None) == "Message"
        if not (built or isinstance(first, ast.Name)):
            wrong.append(f"{where(path, call)}: {ast.unparse(call)[:70]}")
    assert wrong == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_message_names_a_catalog_key_with_its_parameters(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = []
    for _, call in calls(tree, {"Message"}):
        if not call.args:
            wrong.append(f"{where(path, call)}: no key")
            continue
        keys = possible_keys(call.args[0])
        if keys is None:
            wrong.append(f"{where(path, call)}: a key the source does not spell out")
            continue
        wrong += [
            f"{where(path, call)}: {key!r} is not in the catalog" for key in keys - CATALOG.keys()
        ]
        params = call.args[1] if len(call.args) > 1 else None
        if params is None:
            given = set()
        elif isinstance(params, ast.Dict) and all(isinstance(k, ast.Constant) for k in params.keys):
            given = {k.value for k in params.keys}
        else:
            continue  # parameters built elsewhere: the replay and the tests below render them
        for key in keys & CATALOG.keys():
            if placeholders(CATALOG[key]) != given:
                wrong.append(
                    f"{where(path, call)}: {key!r} takes {sorted(placeholders(CATALOG[key]))}, "
                    f"given {sorted(given)}"
                )
    assert wrong == []


def catalog_source():
    tree = ast.parse((RULES / "messages.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "CATALOG":
            return node.value
    raise AssertionError("CATALOG is not assigned in rules/messages.py")


def test_every_template_is_marked_for_the_translators():
    """xgettext (keywords gettext_noop and ngettext_noop:1,2) sees every template literally."""
    source = catalog_source()
    assert isinstance(source, ast.Dict)
    keys = [key.value for key in source.keys if isinstance(key, ast.Constant)]
    assert len(keys) == len(source.keys) == len(set(keys)), "keys are literals, each once"
    assert set(keys) == set(CATALOG)
    wrong = []
    for key, value in zip(keys, source.values, strict=True):
        marker = value.func.id if isinstance(value, ast.Call) else None
        literals = all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in value.args)
        arity = {"gettext_noop": 1, "ngettext_noop": 2}.get(marker)
        if arity is None or len(value.args) != arity or value.keywords or not literals:
            wrong.append(key)
    assert wrong == []


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_templates_are_well_formed(key):
    template = CATALOG[key]
    forms = template if isinstance(template, tuple) else (template,)
    for form in forms:
        assert "%" not in PLACEHOLDER.sub("", form), "a lone % would break the formatting"
        assert form == form.strip() or key == "list-separator"
    if isinstance(template, tuple):
        singular, plural = template
        assert PLACEHOLDER.findall(singular) and "count" in placeholders(template)
        assert set(PLACEHOLDER.findall(singular)) == set(PLACEHOLDER.findall(plural))


def test_every_problem_kind_has_a_title():
    strict = StrictTranslator()
    for kind in ProblemKind:
        assert kind.heading.key == f"kind-{kind.value}"
        assert kind.heading.render(strict).startswith("«")
    titles = {key for key in CATALOG if key.startswith("kind-")}
    assert titles == {f"kind-{kind.value}" for kind in ProblemKind}


# --- rendering what the replay and the engine actually say ------------------------------


def keys_in(message):
    yield message.key
    for value in message.params.values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Message):
                yield from keys_in(item)


def render_replay(data, strict, seen):
    try:
        replay = replay_match(read_mat(data))
    except MatFileError as error:
        assert error.sentence(strict).startswith("«")
        seen.update(keys_in(error.message))
        return
    for problem in replay.problems:
        assert problem.note.render(strict).startswith("«")
        assert problem.heading.render(strict).startswith("«")
        seen.update(keys_in(problem.note))
    for game in replay.games:
        game.cube_note.render(strict)
        seen.update(keys_in(game.cube_note))


def test_the_corpus_and_broken_copies_of_it_render_in_any_language():
    strict, seen = StrictTranslator(), set()
    for path in sorted(CORPUS.glob("*.mat")):
        data = path.read_bytes()
        render_replay(data, strict, seen)
        for seed in range(1, 4):  # a few broken copies of each file, the same on every run
            broken = mutated(data, seed, byte_edits=seed, line_edits=seed % 3)
            render_replay(broken, strict, seen)
    # the walk reaches the problems that broken files give (and the cube's story)
    assert {"log-illegal-play", "log-score", "log-unfinished", "cube-story"} <= seen
    assert {k for k in seen if k.startswith("mat-")}, "and files that cannot be read at all"


def test_refusals_with_parameters_built_at_run_time_render():
    strict = StrictTranslator()
    home = board({6: 1, 5: 1}, {})
    with pytest.raises(IllegalPlayError) as too_far:
        Turn.begin(home, (3, 1)).move(6, 1)
    assert too_far.value.reason == (
        "6/1 moves 5 pips, and the dice left of 3-1 (1, 3) cannot move a checker that far"
    )
    with pytest.raises(IllegalPlayError) as no_dice_left:
        resolve_play(home, (3, 1), "6/3 5/4 4/1")
    assert no_dice_left.value.key == "hop-too-far-no-dice"
    for refusal in (too_far.value, no_dice_left.value):
        assert refusal.sentence(strict).startswith("«")
    crawford = GameContext(rules=MatchRules(5), score=(4, 2), crawford=False, number=4)
    for outcome in (Outcome.SINGLE, Outcome.GAMMON, Outcome.BACKGAMMON, Outcome.DROP):
        with pytest.raises(IllegalActionError) as worth:
            check_result(crawford, GameResult(winner=0, points=7, outcome=outcome, cube=1))
        assert worth.value.key == f"{outcome.value}-worth"
        assert worth.value.sentence(strict).startswith("«")
    with pytest.raises(IllegalActionError) as single:
        check_result(crawford, GameResult(winner=0, points=2, outcome=Outcome.SINGLE, cube=1))
    assert single.value.reason == "a single with the cube at 1 is worth 1 point, not 2"


XGETTEXT = shutil.which("xgettext")


@pytest.mark.skipif(XGETTEXT is None, reason="gettext's xgettext is not installed")
def test_xgettext_finds_every_template(tmp_path):
    """What the site's makemessages will run, with the keywords gettext_noop, ngettext_noop:1,2."""
    out = tmp_path / "rules.po"
    subprocess.run(
        [
            XGETTEXT,
            "--language=Python",
            "--keyword=gettext_noop",
            "--keyword=ngettext_noop:1,2",
            "--from-code=UTF-8",
            "--no-wrap",
            "-o",
            str(out),
            str(RULES / "messages.py"),
        ],
        check=True,
    )
    entries = re.findall(r'^msgid "(.*)"\n(?:msgid_plural "(.*)"\n)?', out.read_text(), re.M)
    found = {(msgid, plural) if plural else msgid for msgid, plural in entries if msgid}
    assert found == set(CATALOG.values())  # no template has a quote or a backslash to escape
