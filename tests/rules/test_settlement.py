"""Settling a session (club practice): totals in points and money, and the fewest transfers."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.settlement import (
    EXACT_UP_TO,
    Transfer,
    _greedy,
    money_totals,
    points_totals,
    transfers,
)

names = st.sampled_from(["anna", "bruno", "carla", "dario", "elena", "franco", "gina"])


@st.composite
def ledgers(draw):
    """A ledger of a session: transfers between a handful of players."""
    entries = []
    for payer, payee, amount in draw(
        st.lists(st.tuples(names, names, st.integers(1, 64)), max_size=30)
    ):
        if payer != payee:
            entries.append(Transfer(payer, payee, amount))
    return entries


@st.composite
def zero_sum_totals(draw, min_players=0, max_players=7):
    """Totals summing to 0, some of them 0, equal and opposite ones likely."""
    count = draw(st.integers(min_players, max_players))
    values = draw(
        st.lists(
            st.one_of(st.integers(-12, 12), st.sampled_from([-5, 5, -3, 3])),
            min_size=count,
            max_size=count,
        )
    )
    if count:
        values[-1] -= sum(values)
    return {f"p{index:02}": value for index, value in enumerate(values)}


def settle(totals, made):
    """What each player ends at once the transfers are paid: must be their total."""
    end = Counter({player: 0 for player in totals})
    for transfer in made:
        end[transfer.payer] -= transfer.amount
        end[transfer.payee] += transfer.amount
    return dict(end)


def partitions(items):
    """Every way to split ``items`` into groups (brute force, for a handful of items)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for split in partitions(rest):
        yield [[first], *split]
        for index in range(len(split)):
            yield [*split[:index], [first, *split[index]], *split[index + 1 :]]


def fewest_by_brute_force(totals):
    """n - the most groups summing to 0 among every partition of the non-zero totals.

    Any settlement links the players it pays between into groups summing to 0, each
    of m players needing m - 1 transfers at least; so this is the least there can be.
    """
    values = [value for value in totals.values() if value]
    most = max(
        sum(1 for _ in parts)
        for parts in partitions(values)
        if all(sum(group) == 0 for group in parts)
    )
    return len(values) - most


def test_a_transfer_is_of_something_between_two_players():
    with pytest.raises(ValueError):
        Transfer("anna", "bruno", 0)
    with pytest.raises(ValueError):
        Transfer("anna", "anna", 3)


def test_points_totals_net_what_each_player_won_and_lost():
    ledger = [
        Transfer("anna", "bruno", 2),
        Transfer("bruno", "carla", 5),
        Transfer("carla", "anna", 1),
    ]
    assert points_totals(ledger) == {"anna": -1, "bruno": -3, "carla": 4}


@given(ledgers())
def test_points_totals_sum_to_zero(ledger):
    assert sum(points_totals(ledger).values()) == 0


def test_money_is_played_at_the_lower_of_the_two_stakes_club_practice():
    """Nobody plays for more than they agreed: 3 points between a 1.00 and a 0.50 player
    are worth 1.50, between two 1.00 players 3.00; a player without a stake plays for 0."""
    ledger = [
        Transfer("anna", "bruno", 3),
        Transfer("anna", "carla", 3),
        Transfer("dario", "anna", 4),
    ]
    stakes = {"anna": 100, "bruno": 50, "carla": 100}
    assert money_totals(ledger, stakes) == {"anna": -450, "bruno": 150, "carla": 300, "dario": 0}


@given(ledgers(), st.dictionaries(names, st.integers(0, 500)))
def test_money_totals_sum_to_zero(ledger, stakes):
    assert sum(money_totals(ledger, stakes).values()) == 0


@given(ledgers())
def test_money_at_one_stake_for_all_is_points_times_the_stake(ledger):
    points = points_totals(ledger)
    money = money_totals(ledger, dict.fromkeys(points, 25))
    assert money == {player: total * 25 for player, total in points.items()}


def test_equal_and_opposite_totals_settle_apart_fewer_than_greedy_would():
    """Dario's 9 and Anna's -9 cancel: 4 transfers, where paying the largest creditor
    first makes 5."""
    totals = {"a": -9, "b": -7, "c": -4, "d": 9, "e": -8, "f": 19}
    made = transfers(totals)
    assert Transfer("a", "d", 9) in made
    assert len(made) == 4 and len(_greedy(totals)) == 5
    assert settle(totals, made) == totals


def test_settled_already_needs_no_transfer():
    assert transfers({}) == ()
    assert transfers({"anna": 0, "bruno": 0}) == ()


def test_totals_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(ValueError):
        transfers({"anna": 3, "bruno": -2})


@given(zero_sum_totals())
def test_transfers_settle_every_total_exactly(totals):
    made = transfers(totals)
    assert all(transfer.amount > 0 for transfer in made)
    assert settle(totals, made) == totals


@given(zero_sum_totals())
def test_transfers_are_the_fewest_there_can_be(totals):
    made = transfers(totals)
    players = sum(1 for value in totals.values() if value)
    assert len(made) <= max(players - 1, 0)
    assert len(made) == fewest_by_brute_force(totals)


@given(zero_sum_totals(), st.randoms())
def test_transfers_are_the_same_whatever_the_order_of_the_totals(totals, random):
    items = list(totals.items())
    random.shuffle(items)
    made = transfers(dict(items))
    assert made == transfers(totals)
    assert list(made) == sorted(made, key=lambda t: (t.payer, t.payee))


@given(zero_sum_totals(min_players=EXACT_UP_TO + 1, max_players=EXACT_UP_TO + 8))
def test_above_the_exact_search_greedy_still_settles_in_n_minus_1(totals):
    made = transfers(totals)
    players = sum(1 for value in totals.values() if value)
    assert settle(totals, made) == totals
    assert len(made) <= max(players - 1, 0)


def test_sixteen_players_are_searched_exactly():
    """Eight pairs that cancel, shuffled among each other: eight transfers, not fifteen."""
    values = [5, -5, 3, -3, 2, -2, 7, -7, 1, -1, 4, -4, 6, -6, 8, -8]
    totals = {f"p{index:02}": value for index, value in enumerate(values)}
    assert len(totals) == EXACT_UP_TO
    made = transfers(totals)
    assert len(made) == 8
    assert settle(totals, made) == totals
