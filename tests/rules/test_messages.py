"""Messages as codes with parameters (rules.messages): rendering, translating, storing."""

import json
import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import IllegalActionError, MatFileError, RulesError
from rules.match import check_match_length
from rules.messages import CATALOG, Message

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


class Loud:
    """A toy translator: each template's words upper-cased, its placeholders left alone."""

    def __init__(self):
        self.asked = []

    def gettext(self, message):
        self.asked.append(message)
        return loud(message)

    def ngettext(self, singular, plural, n):
        self.asked.append((singular, plural, n))
        return loud(singular if n == 1 else plural)


def loud(text):
    return re.sub(
        r"%\(\w+\)[sd]|[^%]+",
        lambda m: m.group(0) if m.group(0).startswith("%(") else m.group(0).upper(),
        text,
    )


def test_english_by_default_and_str():
    held = Message("held-point", {"point": 7})
    assert str(held) == held.render() == "point 7 is held by two or more opposing checkers"


def test_a_translator_reaches_nested_messages_and_plural_forms():
    worth = Message(
        "log-wrong-points",
        {
            "name": "Anna",
            "written": Message("points", {"count": 1}),
            "how": Message("log-how-drop", {"cube": 2}),
            "worth": Message("points", {"count": 2}),
        },
    )
    loud = Loud()
    assert worth.render(loud) == (
        "THE LOG SAYS Anna WINS 1 POINT, BUT THE DOUBLE WAS DROPPED WITH THE CUBE AT 2 "
        "(WBF 23): 2 POINTS"
    )
    # the plural forms went through ngettext with the count, so a language with other forms
    # chooses its own
    assert ("%(count)s point", "%(count)s points", 1) in loud.asked
    assert ("%(count)s point", "%(count)s points", 2) in loud.asked


def test_a_tuple_of_messages_is_a_list_in_the_translators_words():
    story = Message(
        "cube-story",
        {"actions": (Message("cube-taken", {"cube": 2}), Message("cube-dropped", {"cube": 4}))},
    )
    assert str(story) == "2 taken, 4 dropped"
    assert story.render(Loud()) == "2 TAKEN, 4 DROPPED"
    assert str(Message("cube-story", {"actions": ()})) == ""


def test_messages_are_immutable_values():
    held = Message("held-point", {"point": 7})
    same = Message("held-point", {"point": 7})
    assert held == same and hash(held) == hash(same) and len({held, same}) == 1
    with pytest.raises(TypeError):
        held.params["point"] = 8  # type: ignore[index]
    assert pickle.loads(pickle.dumps(held)) == held
    assert repr(held) == "Message('held-point', {'point': 7})"


@pytest.mark.parametrize("value", [1.5, None, True, (1, 2), ["a"], {"a": 1}])
def test_only_text_numbers_and_messages_are_parameters(value):
    with pytest.raises(TypeError):
        Message("held-point", {"point": value})


def test_a_missing_parameter_is_an_error_not_a_silent_gap():
    with pytest.raises(KeyError):
        Message("held-point").render()


def test_errors_carry_their_message_and_rule():
    with pytest.raises(RulesError) as caught:
        check_match_length(4)
    error = caught.value
    assert error.message == Message("odd-length", {"length": 4}) and error.rule == "WBF 3"
    assert (error.key, dict(error.params)) == ("odd-length", {"length": 4})
    assert error.reason == "a match is played to an odd number of points, not 4"
    assert str(error) == "WBF 3: a match is played to an odd number of points, not 4"
    assert error.plain == "A match is played to an odd number of points, not 4 (WBF 3)."
    assert error.sentence(Loud()) == "A MATCH IS PLAYED TO AN ODD NUMBER OF POINTS, NOT 4 (WBF 3)."
    site_template = "A match is played to an odd number of points, not %(length)s (WBF 3)."
    assert site_template % error.params == error.plain  # as matches.services.plain() does


def test_an_error_without_a_rule_and_one_quoted_in_another():
    refused = IllegalActionError(Message("game-over"))
    assert refused.plain == "The game is over." and refused.cited == refused.message
    cited = IllegalActionError(Message("both-dice"), rule="WBF 17").cited
    assert str(cited) == "WBF 17: both dice can be played, so both must be"
    broken = MatFileError(Message("mat-no-game"), line=3)
    assert broken.line == 3 and str(broken).startswith("line 3: expected 'Game 1'")


# --- stored as key and parameters -------------------------------------------------------

KEYS = st.sampled_from(sorted(CATALOG))
TEXT = st.text(max_size=30)
NUMBERS = st.integers(-(10**12), 10**12)
LEAVES = st.builds(
    Message, KEYS, st.dictionaries(st.text(min_size=1, max_size=8), TEXT | NUMBERS, max_size=4)
)
MESSAGES = st.recursive(
    LEAVES,
    lambda inner: st.builds(
        Message,
        KEYS,
        st.dictionaries(
            st.text(min_size=1, max_size=8),
            TEXT | NUMBERS | inner | st.lists(inner, max_size=3).map(tuple),
            max_size=4,
        ),
    ),
    max_leaves=12,
)


@given(MESSAGES)
def test_any_message_survives_a_trip_through_json(message):
    stored = json.loads(json.dumps(message.as_dict()))
    again = Message.from_dict(stored)
    assert again == message and hash(again) == hash(message)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"key": 3},
        {"params": {}},
        {"key": "held-point", "params": {"point": 1.5}},
        {"key": "cube-story", "params": {"actions": [{"key": "cube-taken"}, 2]}},
    ],
)
def test_stored_data_that_is_not_a_message_is_refused(data):
    with pytest.raises(ValueError):
        Message.from_dict(data)
