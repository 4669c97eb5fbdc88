"""Draws, brackets, round robins and Swiss pairings (plain Python, no database)."""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.roundrobin import circle_rounds
from tournaments.pairing.seeding import bracket_size, first_round, random_seeding, seed_order
from tournaments.pairing.swiss import SwissPlayer, swiss_round
from tournaments.ratings import fibs_update

sizes = st.sampled_from([2, 4, 8, 16, 32, 64])


@given(sizes)
def test_seed_order_keeps_top_seeds_apart(size):
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # round one: seed s meets seed size + 1 - s
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    # seeds 1..k are in different sections of size/k for every power of two k
    k = 2
    while k <= size:
        section = size // k
        sections = [order.index(seed) // section for seed in range(1, k + 1)]
        assert len(set(sections)) == k
        k *= 2


@given(st.integers(2, 70))
def test_byes_fill_the_bracket_go_to_top_seeds_and_never_meet(entrants):
    field = [f"P{i}" for i in range(1, entrants + 1)]
    pairs = first_round(field)
    size = bracket_size(entrants)
    assert len(pairs) == size // 2
    players = [p for pair in pairs for p in pair if p is not None]
    assert sorted(players) == sorted(field)  # everyone exactly once
    byes = [pair for pair in pairs if None in pair]
    assert len(byes) == size - entrants
    assert all(pair != (None, None) for pair in pairs)  # byes never meet
    assert {pair[0] for pair in byes} == set(field[: size - entrants])  # the top seeds


def test_a_random_draw_repeats_from_its_seed():
    field = [f"P{i}" for i in range(1, 12)]
    first = random_seeding(field, random.Random(20261122))
    again = random_seeding(field, random.Random(20261122))
    other = random_seeding(field, random.Random(7))
    assert first == again and first != other and sorted(first) == sorted(field)


@given(st.integers(2, 21))
def test_round_robin_meets_everyone_once(count):
    players = list(range(count))
    rounds = circle_rounds(players)
    assert len(rounds) == count - 1 + count % 2
    met = [frozenset(pair) for round_ in rounds for pair in round_ if None not in pair]
    assert len(met) == len(set(met)) == count * (count - 1) // 2
    for round_ in rounds:
        seen = [p for pair in round_ for p in pair if p is not None]
        assert len(seen) == len(set(seen))  # nobody twice in a round
    if count % 2:
        byes = [pair[0] for round_ in rounds for pair in round_ if pair[1] is None]
        assert sorted(byes) == players  # one bye each


def perfect_without_rematch(keys, opponents):
    if not keys:
        return True
    first, rest = keys[0], keys[1:]
    for other in rest:
        if other not in opponents[first]:
            remaining = [k for k in rest if k != other]
            if perfect_without_rematch(remaining, opponents):
                return True
    return False


@st.composite
def swiss_fields(draw):
    count = draw(st.integers(2, 10))
    keys = list(range(count))
    met = draw(st.sets(st.sampled_from(list(itertools.combinations(keys, 2))), max_size=count))
    opponents = {k: set() for k in keys}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    wins = draw(st.lists(st.integers(0, 4), min_size=count, max_size=count))
    byes = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    return [
        SwissPlayer(k, wins[k], rank=k + 1, had_bye=byes[k], opponents=frozenset(opponents[k]))
        for k in keys
    ]


@given(swiss_fields())
def test_swiss_pairs_everyone_once_and_avoids_rematches(players):
    pairings = swiss_round(players)
    seen = [p.first for p in pairings] + [p.second for p in pairings if p.second is not None]
    assert sorted(seen) == sorted(p.key for p in players)
    by_key = {p.key: p for p in players}
    byes = [p for p in pairings if p.second is None]
    assert len(byes) == len(players) % 2
    if byes:
        standing = sorted(players, key=lambda p: (-p.wins, p.rank))
        eligible = [p for p in standing if not p.had_bye] or standing
        assert byes[0].first == eligible[-1].key
    keys = [p.key for p in players if not byes or p.key != byes[0].first]
    opponents = {p.key: p.opponents for p in players}
    rematches = [p for p in pairings if p.second is not None and p.second in opponents[p.first]]
    if perfect_without_rematch(keys, opponents):
        assert rematches == []
    for pairing in pairings:
        assert pairing.reason
        if pairing.second is not None and by_key[pairing.first].wins == by_key[pairing.second].wins:
            assert "same score group" in pairing.reason or "rematch" in pairing.reason


def test_swiss_keeps_score_groups_together_when_it_can():
    players = [
        SwissPlayer(k, w, rank=i + 1)
        for i, (k, w) in enumerate([("A", 3), ("B", 3), ("C", 2), ("D", 2), ("E", 1), ("F", 1)])
    ]
    pairs = {(p.first, p.second) for p in swiss_round(players)}
    assert pairs == {("A", "B"), ("C", "D"), ("E", "F")}


@pytest.mark.parametrize("experience", [400, 1000])
def test_two_experienced_equal_players_in_a_one_point_match_exchange_two_points(experience):
    after = fibs_update(winner=(1500, experience), loser=(1500, experience), length=1)
    assert round(after.winner_rating - 1500, 2) == 2.00 == round(1500 - after.loser_rating, 2)
    assert after.winner_experience == experience + 1


def test_an_upset_moves_more_and_newcomers_move_faster():
    favourite_wins = fibs_update(winner=(1700, 500), loser=(1500, 500), length=7)
    upset = fibs_update(winner=(1500, 500), loser=(1700, 500), length=7)
    assert upset.winner_rating - 1500 > favourite_wins.winner_rating - 1700
    newcomer = fibs_update(winner=(1500, 0), loser=(1500, 500), length=1)
    assert round(newcomer.winner_rating - 1500, 2) == 10.00  # K = 5 for a newcomer
    assert round(1500 - newcomer.loser_rating, 2) == 2.00


def test_the_pairing_code_imports_no_django():
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = (
        "import sys, tournaments.pairing.seeding, tournaments.pairing.swiss, "
        "tournaments.pairing.roundrobin, tournaments.ratings; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


# --- brackets ----------------------------------------------------------------------------

from tournaments.pairing.bracket import (  # noqa: E402
    LoserOf,
    WinnerOf,
    double_elimination,
    play_out,
    random_results,
    single_elimination,
    with_consolation,
)

entrants = st.integers(2, 130)
seeds = st.integers(0, 2**32)


def real_matches(outcome):
    return [k for k, (a, b) in outcome.players.items() if a is not None and b is not None]


@given(entrants, seeds)
def test_single_elimination_places_everyone_once_and_crowns_one(count, seed):
    bracket = single_elimination(count)
    outcome = play_out(bracket, random_results(random.Random(seed)))
    first_round = [p for m in bracket.rounds("main")[0] for p in outcome.players[m.key] if p]
    assert sorted(first_round) == list(range(1, count + 1))
    assert len(real_matches(outcome)) == count - 1  # everyone but the champion loses once
    assert sorted(outcome.losses.values()).count(0) == 1 and outcome.champion in range(1, count + 1)
    fed = [s.key for m in bracket.matches for s in m.sources if isinstance(s, WinnerOf)]
    assert len(fed) == len(set(fed)) == len(bracket.matches) - 1  # each winner goes one place


@given(entrants, seeds, st.booleans())
def test_consolation_takes_the_main_draws_losers(count, seed, progressive):
    bracket = with_consolation(count, progressive=progressive)
    outcome = play_out(bracket, random_results(random.Random(seed)))
    main_rounds = bracket.rounds("main")
    fed_rounds = range(len(main_rounds) - 1) if progressive else range(1)
    expected = {
        outcome.players[m.key][0]
        if outcome.winners[m.key] != outcome.players[m.key][0]
        else outcome.players[m.key][1]
        for r in fed_rounds
        for m in main_rounds[r]
        if None not in outcome.players[m.key]
    }
    in_consolation = {
        p for m in bracket.matches if m.draw == "consolation" for p in outcome.players[m.key] if p
    }
    if len(expected) > 1:
        assert in_consolation == expected  # every fed loser plays on, nobody else does
    fed = [s.key for m in bracket.matches for s in m.sources if isinstance(s, LoserOf)]
    assert len(fed) == len(set(fed))  # a loser goes to one place


@given(entrants, seeds)
def test_double_elimination_takes_two_losses_to_go_out(count, seed):
    outcome = play_out(double_elimination(count), random_results(random.Random(seed)))
    for player, losses in outcome.losses.items():
        assert losses == (2 if player != outcome.champion else losses)
    assert outcome.losses[outcome.champion] <= 1
    assert len(real_matches(outcome)) in (2 * count - 2, 2 * count - 3)


def test_a_big_swiss_field_pairs_everyone_without_rematches():
    from tournaments.pairing.bench import swiss_field

    field = swiss_field(300, random.Random(5))  # large enough for the windowed search
    pairings = swiss_round(field)
    seen = [p.first for p in pairings] + [p.second for p in pairings if p.second is not None]
    assert sorted(seen) == list(range(300))
    assert not [p for p in pairings if "rematch" in p.reason]
    wins = {p.key: p.wins for p in field}
    floats = [p for p in pairings if p.second is not None and wins[p.first] != wins[p.second]]
    assert all(abs(wins[p.first] - wins[p.second]) == 1 for p in floats)
    assert len(floats) <= 3  # at most one float between neighbouring score groups
