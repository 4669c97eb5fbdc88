"""Italian everywhere: the engine's catalogue, problem kinds, pairing reasons and audit sentences
render in Italian, with the words of locale/it/GLOSSARY.md (partita for a match, gioco for a game).

Each test reads the compiled catalogue through Django, as a page does, so a missing, empty or
stale translation shows as English coming back.
"""

import gettext as gnu_gettext
import re

import pytest
from django.utils import translation

from club.audit import _SENTENCES, audit_sentence
from club.models import AuditEntry
from rules.messages import CATALOG, Message
from rules.replay import ProblemKind
from tests.conftest import ROOT
from tournaments.pairing.swiss import REASONS
from tournaments.reasons import reason_text

PO = ROOT / "locale/it/LC_MESSAGES/django.po"
MO = ROOT / "locale/it/LC_MESSAGES/django.mo"
PLACEHOLDER = re.compile(r"%\((\w+)\)([sd])")

# Templates with no words of their own: the Italian is the English, and that is right.
WORDLESS = {
    "list-separator": "a comma and a space join a list in Italian too",
    "rule-cited": "'WBF 17: <reason>': the rule's name and the reason, already translated",
    "hop": "'13/7: <reason>': notation and the reason, already translated",
    "not-now": "'<refusal>: <waiting>': two messages, each translated on its own",
    "cube-story": "the list of a game's cube actions, each translated on its own",
    "cube-offered": "a double to this cube value, not answered: the number alone",
    "chouette-player": "a player's name in a list of members: the name alone",
}

# Words an Italian sentence shares with the English on purpose: the game's loanwords, the rule
# books' names, file and rating names (see GLOSSARY.md). Any other English word left in the
# Italian is a word left untranslated. NAMES: the samples' own names, and IDs kept as they are.
SHARED_WORDS = {
    "account",  # Italian says account and link (Django's own Italian does too)
    "link",
    "backgammon",
    "bar",
    "beaver",
    "box",  # the chouette's box: Galore 3.1 says box in Italian too
    "chouette",
    "extra",  # Galore 3.4: "cubi extra"
    "buchholz",
    "crawford",
    "fibs",
    "file",
    "galore",
    "jacoby",  # a name: Galore 2.8 "La regola di Jacoby"
    "gammon",
    "log",
    "nackgammon",
    "off",
    "otter",
    "pip",
    "raccoon",
    "rating",
    "wbf",
    "xgid",
}
QUOTED = re.compile(r"“[^”]*”|(?<![A-Za-z])'[^']*'(?![A-Za-z])")  # a file's own text, as quoted
NAMES = re.compile(
    r"Anna Rossi|Bruno Bianchi|Carla Verdi|Dario Neri|Elena Gialli|Marco Bianchi|Principale|"
    r"Svizzero – fase finale a 8|Svizzero|Open di Genova|Zenzero|Circolo di Napoli|Match ID|"
    r"Position ID|--games|gnubg-legal\.jsonl|\.mat\b"
)


def words(text):
    text = NAMES.sub(" ", PLACEHOLDER.sub(" ", QUOTED.sub(" ", text)))
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)} - SHARED_WORDS


def english_left(english, said):
    """The English words (three letters or more) still in the Italian: none, if translated."""
    return words(english) & words(said)


def forms(template):
    return template if isinstance(template, tuple) else (template,)


def wordless(template):
    return all(not re.search(r"[A-Za-z]", PLACEHOLDER.sub("", form)) for form in forms(template))


def italian(template):
    """The template's Italian forms, through Django's catalogue: (singular,) or (one, many)."""
    with translation.override("it"):
        if isinstance(template, tuple):
            return (
                translation.ngettext(template[0], template[1], 1),
                translation.ngettext(template[0], template[1], 2),
            )
        return (translation.gettext(template),)


def po_entries():
    """(msgid, msgid_plural, [msgstr...], flags) of each entry, the header left out; a
    msgid with a context is keyed as in the .mo."""
    entries = []
    for block in PO.read_text(encoding="utf-8").strip().split("\n\n")[1:]:
        fields, flags, current = {}, set(), None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                fields[current] += line[1:-1]
            else:
                current, _, value = line.partition(" ")
                fields[current] = value[1:-1]
        strings = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
        msgid = fields["msgid"]
        if "msgctxt" in fields:  # as gettext keys it: context, EOT, message
            msgid = fields["msgctxt"] + "\x04" + msgid
        entries.append((msgid, fields.get("msgid_plural"), strings, flags))
    return entries


def unescape(text):
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape")


# --- the rules engine's catalogue ----------------------------------------------------------


def test_the_wordless_templates_are_exactly_those_listed():
    """WORDLESS cannot hide a template with words: it is exactly what the catalog has."""
    assert {key for key, template in CATALOG.items() if wordless(template)} == set(WORDLESS)


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_engine_template_has_its_italian(key):
    template = CATALOG[key]
    english = forms(template)
    for english_form, italian_form in zip(english, italian(template), strict=True):
        assert set(PLACEHOLDER.findall(italian_form)) == set(PLACEHOLDER.findall(english_form)), (
            f"{key}: the Italian {italian_form!r} changes the parameters of {english_form!r}"
        )
        if key in WORDLESS:
            assert italian_form == english_form, f"{key}: {WORDLESS[key]}"
        else:
            assert italian_form != english_form, f"{key}: no Italian for {english_form!r}"
            assert not english_left(english_form, italian_form), (key, italian_form)


def test_a_plural_template_has_two_italian_forms():
    """Italian says 1 punto and 2 punti: a plural entry renders differently for 1 and for 2."""
    with translation.override("it"):
        assert Message("points", {"count": 1}).render(translation) == "1 punto"
        assert Message("points", {"count": 3}).render(translation) == "3 punti"
        unfinished = Message("log-unfinished", {"a": 2, "b": 3, "count": 5}).render(translation)
    assert unfinished == "la partita si ferma sul 2-3: nessuno ha raggiunto 5 punti (WBF 3)"


def test_a_refusal_reads_in_italian_with_its_rule():
    from rules.errors import RulesError

    refusal = RulesError(
        Message("hop", {"hop": "13/7", "reason": Message("held-point", {"point": 7})}),
        rule="WBF 18",
    )
    with translation.override("it"):
        sentence = refusal.sentence(translation)
    assert sentence == "13/7: la punta 7 è occupata da due o più pedine avversarie (WBF 18)."


def test_every_problem_kind_has_an_italian_title():
    for kind in ProblemKind:
        english = kind.heading.render()
        with translation.override("it"):
            title = kind.heading.render(translation)
        assert title and title != english, kind
        assert not english_left(english, title), (kind, title)


# --- pairing reasons -----------------------------------------------------------------------

REASON_PARAMS = {"same-group": {"wins": 2}, "float": {"from": 3, "to": 2}}


@pytest.mark.parametrize(
    ("code", "params"),
    [(code, REASON_PARAMS.get(code, {})) for code in sorted(REASONS)]
    + [("same-group", {})],  # recorded before reasons had numbers
    ids=lambda value: value if isinstance(value, str) else ",".join(value) or "no params",
)
def test_every_pairing_reason_reads_in_italian(code, params):
    names = ("Anna Rossi", "Bruno Bianchi")
    with translation.override("en"):
        english = reason_text(code, params, *names)
    with translation.override("it"):
        said = reason_text(code, params, *names)
    assert said and said != english
    assert not english_left(english, said), said


def test_a_float_names_both_players_and_their_wins():
    with translation.override("it"):
        said = reason_text("float", {"from": 3, "to": 1}, "Anna Rossi", "Bruno Bianchi")
    assert said == (
        "Anna Rossi scende dal gruppo con 3 vittorie per incontrare Bruno Bianchi "
        "nel gruppo con 1 vittoria"
    )


# --- audit sentences -----------------------------------------------------------------------

GAME = {"number": 3, "winner": "Anna Rossi", "resigned": None}
SINGLE = {**GAME, "outcome": "single", "cube": 1, "points": 1}
GAMMON = {**GAME, "outcome": "gammon", "cube": 2, "points": 4}
BACKGAMMON = {**GAME, "outcome": "backgammon", "cube": 1, "points": 3}
DROP = {**GAME, "outcome": "drop", "cube": 2, "points": 2}
RESIGNED = {**GAME, "outcome": "resignation", "resigned": 2, "cube": 2, "points": 4}

# (code, params, before, after) as each service records them (see its audit_record call)
PENALTY_LATE = {
    "name": "Bruno Bianchi",
    "scorer": "Anna Rossi",
    "points": 2,
    "reason": "lateness",
    "note": "",
    "minutes_late": 10,
    "before_game": 1,
    "score_a": 2,
    "score_b": 0,
}
PENALTY_BREACH = {**PENALTY_LATE, "points": 1, "reason": "director", "note": "Mosso prima"}
AUDIT_SAMPLES = [
    ("player.created", {"name": "Anna Rossi"}, None, {"name": "Anna Rossi", "club": "Zenzero"}),
    (
        "player.changed",
        {"name": "Anna Rossi"},
        {"club": "Zenzero", "phone": ""},
        {"club": "Circolo di Napoli", "phone": "010 5412003"},
    ),
    ("player.changed", {"name": "Anna Rossi"}, {"country": "IT"}, {"country": "CH"}),
    (
        "player.country_coded",
        {"name": "Anna Rossi", "typed": "Schweiz", "code": "CH"},
        {"country": "Schweiz"},
        {"country": "CH"},
    ),
    (
        "player.country_coded",
        {"name": "Anna Rossi", "typed": "Atlantide", "code": ""},
        {"country": "Atlantide"},
        {"country": ""},
    ),
    ("dice.allowed", {"allowed": True}, None, None),
    ("dice.allowed", {"allowed": False}, None, None),
    ("match.created", {"a": "Anna Rossi", "b": "Bruno Bianchi", "length": 7}, None, None),
    (
        "match.players",
        {"a": "Anna Rossi", "b": "Carla Verdi"},
        {"a": "Anna Rossi", "b": "Bruno Bianchi"},
        {"a": "Anna Rossi", "b": "Carla Verdi"},
    ),
    ("match.deleted", {"a": "Anna Rossi", "b": "Bruno Bianchi"}, None, None),
    (
        "match.length",
        {"match": "Anna Rossi – Bruno Bianchi", "length": 9},
        {"length": 7},
        {"length": 9},
    ),
    ("game.recorded", {"number": 3}, None, SINGLE),
    ("game.recorded", {"number": 3}, None, GAMMON),
    ("game.recorded", {"number": 3}, None, BACKGAMMON),
    ("game.recorded", {"number": 3}, None, DROP),
    ("game.recorded", {"number": 3}, None, RESIGNED),
    ("game.corrected", {"number": 3}, SINGLE, GAMMON),
    ("result.final_score", {"score_a": 5, "score_b": 3}, None, {"score_a": 5, "score_b": 3}),
    (
        "result.final_score",
        {"score_a": 5, "score_b": 3},
        {"walkover": "Bruno Bianchi"},
        {"score_a": 5, "score_b": 3},
    ),
    ("result.walkover", {"winner": "Anna Rossi"}, None, {"walkover": "Anna Rossi"}),
    (
        "result.walkover",
        {"winner": "Anna Rossi"},
        {"score_a": 3, "score_b": 5},
        {"walkover": "Anna Rossi"},
    ),
    ("result.cleared", {}, {"walkover": "Anna Rossi"}, None),
    ("result.cleared", {}, {"score_a": 5, "score_b": 3}, None),
    (
        "result.retired",
        {"name": "Bruno Bianchi", "winner": "Anna Rossi", "score_a": 5, "score_b": 2},
        None,
        {"retired": "Bruno Bianchi", "score_a": 5, "score_b": 2},
    ),
    ("result.cleared", {}, {"retired": "Bruno Bianchi", "score_a": 5, "score_b": 2}, None),
    (
        "result.forfeit",
        {
            "name": "Bruno Bianchi",
            "winner": "Anna Rossi",
            "reason": "time",
            "score_a": 5,
            "score_b": 2,
        },
        None,
        {"forfeit": "time", "retired": "Bruno Bianchi", "score_a": 5, "score_b": 2},
    ),
    (
        "result.forfeit",
        {
            "name": "Bruno Bianchi",
            "winner": "Anna Rossi",
            "reason": "lateness",
            "score_a": 5,
            "score_b": 0,
        },
        None,
        {"forfeit": "lateness", "retired": "Bruno Bianchi", "score_a": 5, "score_b": 0},
    ),
    (
        "result.cleared",
        {},
        {"forfeit": "time", "retired": "Bruno Bianchi", "score_a": 5, "score_b": 2},
        None,
    ),
    ("penalty.awarded", PENALTY_LATE, None, PENALTY_LATE),
    ("penalty.awarded", PENALTY_BREACH, None, PENALTY_BREACH),
    ("penalty.removed", PENALTY_LATE, PENALTY_LATE, None),
    ("board.started", {"number": 4}, None, None),
    ("clock.started", {}, None, None),
    ("clock.paused", {}, None, None),
    ("clock.resumed", {}, None, None),
    ("clock.flag", {"name": "Anna Rossi", "winner": "Bruno Bianchi", "lost": "match"}, None, None),
    ("clock.flag", {"name": "Anna Rossi", "winner": "Bruno Bianchi", "lost": "game"}, None, None),
    ("match.imported", {"games": 1}, None, None),
    ("match.imported", {"games": 6}, None, None),
    ("dispute.opened", {"dispute": 1, "filename": "anna.mat"}, None, None),
    ("dispute.sheets", {"dispute": 1}, None, {"sheets": [[5, 3], None]}),
    ("dispute.decided", {"dispute": 1, "changed": 1}, None, None),
    ("dispute.decided", {"dispute": 1, "changed": 2}, None, None),
    ("dispute.closed", {"dispute": 1}, None, None),
    (
        "dispute.sheet_applied",
        {"dispute": 1, "changed": 1, "a": 1, "b": 0, "name": "Bruno Bianchi"},
        None,
        None,
    ),
    ("dispute.sheet_applied", {"dispute": 1, "changed": 0, "a": 3, "b": 1, "name": ""}, None, None),
    ("tournament.created", {"name": "Open di Genova"}, None, {"venue": "Zenzero"}),
    ("tournament.imported", {"name": "Open di Genova"}, None, None),
    ("event.created", {"event": "Principale"}, None, {"format": "single"}),
    (
        "tournament.changed",
        {"name": "Open di Genova"},
        {"date": "2026-12-13", "venue": "Zenzero", "directors": ["Anna Rossi"]},
        {"date": "2026-12-20", "venue": "", "directors": ["Anna Rossi", "Bruno Bianchi"]},
    ),
    (
        "event.changed",
        {"event": "Principale"},
        {"format": "single", "lengths": [5, 7], "seeding": "random", "holland": False},
        {"format": "swiss", "lengths": [7], "seeding": "rating", "holland": True},
    ),
    (
        "event.changed",
        {"event": "Principale"},
        {"swiss_rounds": None, "cut": None, "pools": 2},
        {"swiss_rounds": 5, "cut": 8, "pools": None},
    ),
    ("entry.registered", {"player": "Anna Rossi", "event": "Principale"}, None, None),
    (
        "entry.checked_in",
        {"player": "Anna Rossi", "event": "Principale"},
        {"status": "registered"},
        {"status": "checked_in"},
    ),
    (
        "entry.withdrawn",
        {"player": "Anna Rossi", "event": "Principale"},
        {"status": "checked_in"},
        {"status": "withdrawn"},
    ),
    (
        "entry.check_in_undone",
        {"player": "Anna Rossi", "event": "Principale"},
        {"status": "checked_in"},
        {"status": "registered"},
    ),
    (
        "entry.reinstated",
        {"player": "Anna Rossi", "event": "Principale"},
        {"status": "withdrawn"},
        {"status": "checked_in"},
    ),
    ("event.drawn", {"event": "Principale", "seed": 20261213, "seeding": "random"}, None, None),
    (
        "event.redrawn",
        {"event": "Principale", "seed": 20261213, "matches": 1},
        {"seed": 20261213, "seeding": "random", "seeds": [[1, "Anna Rossi"], [2, "Carla Verdi"]]},
        None,
    ),
    (
        "event.redrawn",
        {"event": "Principale", "seed": None, "matches": 4},
        {"seed": None, "seeding": "rating", "seeds": [[1, "Anna Rossi"], [2, "Carla Verdi"]]},
        None,
    ),
    ("event.drawn", {"event": "Principale", "seed": None, "seeding": "rating"}, None, None),
    (
        "event.paired",
        {"event": "Svizzero", "round": 2},
        None,
        {
            "pairings": [
                ["Anna Rossi", "Bruno Bianchi", "same-group"],
                ["Carla Verdi", "Dario Neri", "rematch"],
                ["Elena Gialli", None, "bye"],
            ]
        },
    ),
    (
        "event.cut",
        {"event": "Svizzero", "knockout": "Svizzero – fase finale a 8", "count": 8},
        None,
        None,
    ),
    (
        "event.cut",
        {"event": "Svizzero", "knockout": "", "count": 4},
        None,
        {
            "seeds": [[1, "Anna Rossi"], [2, "Bruno Bianchi"]],
            "level_at_the_line": ["Carla Verdi", "Dario Neri"],
            "decided_by": "director",
        },
    ),
    (
        "event.cut",
        {"event": "Svizzero", "knockout": "", "count": 4},
        None,
        {"level_at_the_line": ["Carla Verdi", "Dario Neri"], "decided_by": "draw_order"},
    ),
    (
        "place.created",
        {"event": "Principale", "key": "W2-1", "round": 2, "a": "Anna Rossi", "b": "Carla Verdi"},
        None,
        None,
    ),
    (
        "place.changed",
        {
            "key": "W2-1",
            "before": "Anna Rossi – Bruno Bianchi (7)",
            "after": "Anna Rossi – Carla Verdi",
        },
        None,
        None,
    ),
    (
        "place.changed",
        {"key": "F2", "before": "Anna Rossi – Bruno Bianchi (9)", "after": ""},
        None,
        None,
    ),
    (
        "event.draw_undone",
        {"event": "Principale", "seed": 20261122, "matches": 6},
        {"seed": 20261122, "seeding": "random", "seeds": [[1, "Anna Rossi"]]},
        None,
    ),
    ("event.draw_undone", {"event": "Principale", "seed": None, "matches": 1}, None, None),
    ("entry.late", {"player": "Anna Rossi", "event": "Principale", "key": "M1-3"}, None, None),
    ("entry.late", {"player": "Anna Rossi", "event": "Svizzero", "round": 3}, None, None),
    # time (issue 28): the time rules, a round's start and clocks, players arriving late
    *[
        (
            "time_rules.set",
            {
                "late_minutes_per_point": minutes,
                "late_grace_minutes": grace,
                "late_forfeit_at_half": True,
                "clock_seconds_per_point": 120,
                "clock_delay_seconds": delay,
                "clock_on_flag": flag,
            },
            None,
            None,
        )
        for minutes, grace, delay, flag in (
            (5, 0, 12, "match"),
            (0, 0, 0, "game"),
            (1, 1, 1, "game"),
        )
    ],
    (
        "round.times_set",
        {
            "event": "Svizzero",
            "round": 2,
            "starts_at": "2026-12-13T14:30:00+00:00",
            "clocks": "required",
        },
        None,
        None,
    ),
    (
        "round.times_set",
        {"event": "Svizzero", "round": 3, "starts_at": None, "clocks": "none"},
        None,
        None,
    ),
    *[
        (
            "arrival.recorded",
            {
                "player": "Anna Rossi",
                "opponent": "Bruno Bianchi",
                "minutes": late,
                "points": points,
                "forfeits": forfeit,
            },
            None,
            None,
        )
        for late, points, forfeit in (
            (0, 0, False),
            (1, 0, False),
            (12, 2, False),
            (5, 1, False),
            (21, 4, True),
        )
    ],
    (
        "arrival.waived",
        {"player": "Anna Rossi", "opponent": "Bruno Bianchi", "minutes": 11, "points": 2},
        None,
        None,
    ),
    (
        "entry.substituted",
        {"player": "Carla Verdi", "gone": "Anna Rossi", "event": "Principale"},
        None,
        None,
    ),
    ("late_rounds.set", {"count_as": "bye"}, {"late_rounds": "loss"}, {"late_rounds": "bye"}),
    ("late_rounds.set", {"count_as": "loss"}, {"late_rounds": "bye"}, {"late_rounds": "loss"}),
    ("tables.set", {"count": 12}, {"tables": None}, {"tables": 12}),
    ("invitation.issued", {"name": "Anna Rossi", "expires": "2026-12-27"}, None, None),
    ("invitation.revoked", {"name": "Anna Rossi"}, None, None),
    (
        "invitation.accepted",
        {"name": "Anna Rossi", "account": "anna", "new": True},
        {"account": ""},
        {"account": "anna"},
    ),
    (
        "invitation.accepted",
        {"name": "Anna Rossi", "account": "anna", "new": False},
        {"account": ""},
        {"account": "anna"},
    ),
    (
        "player.signed_up",
        {"name": "Carla Verdi", "account": "carla"},
        None,
        {"name": "Carla Verdi", "club": "", "country": "", "email": "", "phone": ""},
    ),
    ("open_entry.set", {"allowed": True}, None, None),
    ("open_entry.set", {"allowed": False}, None, None),
    (
        "entry_request.asked",
        {"player": "Anna Rossi", "event": "Principale"},
        None,
        {"status": "pending"},
    ),
    (
        "entry_request.approved",
        {"player": "Anna Rossi", "event": "Principale"},
        None,
        {"status": "approved"},
    ),
    (
        "entry_request.declined",
        {"player": "Anna Rossi", "event": "Principale"},
        None,
        {"status": "declined"},
    ),
    (
        "entry.checked_in",
        {"player": "Anna Rossi", "event": "Principale", "own": True},
        {"status": "registered"},
        {"status": "checked_in"},
    ),
    ("tables.set", {"count": 0}, {"tables": 12}, {"tables": None}),
    ("table.moved", {"a": "Anna Rossi", "b": "Carla Verdi", "table": 4, "before": 7}, None, None),
    ("table.moved", {"a": "Anna Rossi", "b": "Carla Verdi", "table": 4, "before": 0}, None, None),
    (
        "report.made",
        {"name": "Anna Rossi"},
        None,
        {"number": 3, "winner": "Anna Rossi", "cube": 2, "result": "gammon", "resigned": None},
    ),
    ("report.made", {"name": "Anna Rossi"}, None, {"score_a": 5, "score_b": 3}),
    ("report.void", {"name": "Anna Rossi"}, None, None),
    (
        "report.disputed",
        {"name": "Anna Rossi", "by": "Carla Verdi"},
        None,
        {"claimed": [5, 3], "own": [3, 5]},
    ),
    (
        "report.disputed",
        {"name": "Anna Rossi", "by": "Carla Verdi"},
        None,
        {"claimed": [5, 3], "own": None},
    ),
    ("report.withdrawn", {"name": "Anna Rossi"}, None, None),
    (
        "notifications.set",
        {"name": "Anna Rossi"},
        {"emails": True, "language": ""},
        {"emails": False, "language": ""},
    ),
    (
        "notifications.set",
        {"name": "Anna Rossi"},
        {"emails": False, "language": ""},
        {"emails": True, "language": "it"},
    ),
    (
        "reports.set",
        {"results_by": "players", "report_detail": "games", "confirm_minutes": 15},
        None,
        None,
    ),
    (
        "reports.set",
        {"results_by": "directors", "report_detail": "either", "confirm_minutes": 15},
        None,
        None,
    ),
    ("game.recorded", {"number": 3, "reported_by": "Anna Rossi"}, None, GAMMON),
    (
        "result.final_score",
        {"score_a": 5, "score_b": 3, "reported_by": "Anna Rossi"},
        None,
        {"score_a": 5, "score_b": 3},
    ),
    ("dispute.decided", {"dispute": 1, "changed": 2, "report": "Anna Rossi"}, None, None),
    (
        "announcement.posted",
        {"text": "Il turno 3 comincia alle 16:30", "minutes": 30},
        None,
        {"text": "Il turno 3 comincia alle 16:30", "minutes": 30},
    ),
    ("announcement.withdrawn", {"text": "Il turno 3 comincia alle 16:30"}, None, None),
    # money sessions and chouettes (money/audit.py)
    ("table.started", {"table": "Venerdì sera", "kind": "chouette"}, None, {"players": []}),
    ("table.started", {"table": "Sfida", "kind": "money"}, None, {"players": ["Anna Rossi"]}),
    ("table.joined", {"table": "Venerdì sera", "player": "Anna Rossi", "stake": 150}, None, None),
    (
        "table.order",
        {"table": "Venerdì sera", "seq": 1, "box": "Anna Rossi", "captain": "Bruno Bianchi"},
        None,
        None,
    ),
    (
        "table.order",
        {"table": "Venerdì sera", "seq": 1, "box": "Anna Rossi", "captain": ""},
        None,
        None,
    ),
    *[
        (
            "table.lineup",
            {"table": "Venerdì sera", "seq": 9, "player": "Carla Verdi", "change": change},
            None,
            None,
        )
        for change in ("join", "leave", "rest", "back")
    ],
    ("table.partner", {"table": "Venerdì sera", "seq": 4, "partner": "Carla Verdi"}, None, None),
    ("table.partner", {"table": "Venerdì sera", "seq": 4, "partner": ""}, None, None),
    ("table.game_started", {"table": "Venerdì sera", "seq": 2, "number": 1}, None, None),
    (
        "table.game_ended",
        {
            "table": "Venerdì sera",
            "seq": 5,
            "number": 1,
            "box": "Anna Rossi",
            "box_wins": True,
            "result": "gammon",
            "resigned": None,
        },
        None,
        None,
    ),
    (
        "table.game_ended",
        {
            "table": "Venerdì sera",
            "seq": 5,
            "number": 2,
            "box": "Anna Rossi",
            "box_wins": False,
            "result": "resignation",
            "resigned": 2,
        },
        None,
        None,
    ),
    *[
        (
            "table.deal",
            {
                "table": "Venerdì sera",
                "seq": 7,
                "number": 2,
                "members": ["Bruno Bianchi", "Carla Verdi"],
                "points": points,
            },
            None,
            None,
        )
        for points in (1, 2, -1, -4)
    ],
    ("table.game_undone", {"table": "Venerdì sera", "seq": 8, "number": 2}, None, None),
    (
        "table.corrected",
        {"table": "Venerdì sera", "seq": 3},
        {
            "data": {"kind": "end", "box_wins": True, "level": "single", "resigned": False},
            "said": {
                "key": "chouette-log-end-box-wins",
                "params": {"level": {"key": "chouette-level-single", "params": {}}},
            },
        },
        {
            "data": {"kind": "end", "box_wins": False, "level": "gammon", "resigned": False},
            "said": {
                "key": "chouette-log-end-team-wins",
                "params": {"level": {"key": "chouette-level-gammon", "params": {}}},
            },
        },
    ),
    (
        "table.stake",
        {"table": "Venerdì sera", "player": "Anna Rossi"},
        {"stake": 100},
        {"stake": 250},
    ),
    ("table.closed", {"table": "Venerdì sera"}, None, None),
    ("job.started", {"kind": "ratings.rederive", "params": {"order": 12}}, None, None),
    ("job.retried", {"kind": "ratings.rederive", "params": {"order": 12}}, None, None),
    ("ratings.rederived", {"order": 12, "rated": 340}, None, None),
]


def test_every_registered_audit_code_has_a_sample():
    """A new audit code fails here until a realistic entry of it is added to the samples."""
    assert {sample[0] for sample in AUDIT_SAMPLES} == set(_SENTENCES)


@pytest.mark.parametrize(
    ("code", "params", "before", "after"), AUDIT_SAMPLES, ids=[s[0] for s in AUDIT_SAMPLES]
)
def test_every_audit_sentence_reads_in_italian(code, params, before, after):
    entry = AuditEntry(
        user_name="Marco Bianchi", code=code, params=params, before=before, after=after
    )
    with translation.override("en"):
        english = audit_sentence(entry)
    with translation.override("it"):
        said = audit_sentence(entry)
    assert said != english
    assert said.startswith("Marco Bianchi ha "), said
    assert not english_left(english, said), said


def test_an_audit_sentence_says_game_and_points_in_italian():
    entry = AuditEntry(
        user_name="Marco Bianchi", code="game.recorded", params={"number": 3}, after=GAMMON
    )
    with translation.override("it"):
        said = audit_sentence(entry)
    assert said == (
        "Marco Bianchi ha registrato il gioco 3: Anna Rossi ha vinto (gammon, cubo a 2): "
        "4 punti segnati."
    )


def test_the_site_acting_reads_in_italian():
    entry = AuditEntry(user_name="", code="match.deleted", params={"a": "Anna", "b": "Bruno"})
    with translation.override("it"):
        assert (
            audit_sentence(entry) == "Il sito ha eliminato la partita Anna – Bruno, mai iniziata."
        )


# --- the catalogue file --------------------------------------------------------------------


def test_no_entry_is_fuzzy_or_empty():
    """Stricter than test_i18n's: every msgstr of every entry, plural forms each."""
    bad = [
        msgid
        for msgid, plural, strings, flags in po_entries()
        if "fuzzy" in flags
        or not strings
        or any(not s for s in strings)
        or (plural is not None and len(strings) != 2)
    ]
    assert bad == []


def test_the_compiled_catalogue_is_the_po():
    """django.mo says what django.po says: run compilemessages after changing the .po."""
    with MO.open("rb") as handle:
        compiled = gnu_gettext.GNUTranslations(handle)._catalog
    stale = []
    for msgid, plural, strings, _ in po_entries():
        msgid, strings = unescape(msgid), [unescape(s) for s in strings]
        if plural is None:
            found = [compiled.get(msgid)]
        else:
            found = [compiled.get((msgid, n)) for n in range(len(strings))]
        if found != strings:
            stale.append(msgid)
    assert stale == []


# --- the glossary where it matters most ----------------------------------------------------


def test_the_crawford_game_is_a_gioco():
    (said,) = italian(CATALOG["crawford-double"])
    assert said == "il gioco %(number)s è il gioco Crawford: niente raddoppi"
    with translation.override("it"):
        board = translation.gettext("Game %(number)s is the Crawford game: no doubling (WBF 24).")
    assert board == "Il gioco %(number)s è il gioco Crawford: niente raddoppi (WBF 24)."


def test_a_game_is_never_a_partita():
    """Where the English says game N or the Crawford game, the Italian says gioco."""
    wrong = []
    for msgid, plural, strings, _ in po_entries():
        english = " ".join(filter(None, (msgid, plural)))
        for said in strings:
            if re.search(r"partita (Crawford|%\(number\)s|\d)", said, re.IGNORECASE):
                wrong.append(said)
            if re.search(r"(?<!')\bgame %\(number\)s", english, re.IGNORECASE) and not re.search(
                r"\bgioco %\(number\)s", said, re.IGNORECASE
            ):
                wrong.append(said)
            if "crawford game" in english.lower() and "gioco crawford" not in said.lower():
                wrong.append(said)
    assert wrong == []


@pytest.mark.parametrize(
    ("english", "said"),
    [
        ("game", "gioco"),
        ("games", "giochi"),
        ("Game", "Gioco"),
        ("match", "partita"),
        ("matches", "partite"),
        ("Matches", "Partite"),
        ("New match", "Nuova partita"),
        ("Match length", "Lunghezza della partita"),
        ("Opening roll", "Lancio d’inizio"),
        ("Take", "Accetta"),
        ("Drop", "Rifiuta"),
        ("Score sheet", "Foglio segnapunti"),
        ("Dispute", "Contestazione"),
        ("Bracket", "Tabellone"),
        ("bye", "riposo"),
        ("Rating", "Rating FIBS"),
    ],
)
def test_the_glossarys_words(english, said):
    with translation.override("it"):
        assert translation.gettext(english) == said


def test_the_rating_is_never_called_elo():
    assert not re.search(r"\bELO\b", PO.read_text(encoding="utf-8"), re.IGNORECASE)


def test_quotes_and_apostrophes_are_typographic():
    """The glossary's typography: “…” and ’, never ' or " (which a page would also escape)."""
    straight = [s for _, _, strings, _ in po_entries() for s in strings if re.search(r"'|\\\"", s)]
    assert straight == []
