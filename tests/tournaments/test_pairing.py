"""Draws, brackets, round robins and Swiss pairings (plain Python, no database)."""

import itertools
import random
from dataclasses import replace

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
            assert pairing.reason.code in ("same-group", "rematch")


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
        "tournaments.pairing.roundrobin, tournaments.pairing.bracket, "
        "tournaments.pairing.standings, tournaments.ratings; "
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
    assert not [p for p in pairings if p.reason.code == "rematch"]
    wins = {p.key: p.wins for p in field}
    floats = [p for p in pairings if p.second is not None and wins[p.first] != wins[p.second]]
    assert all(abs(wins[p.first] - wins[p.second]) == 1 for p in floats)
    assert len(floats) <= 3  # at most one float between neighbouring score groups


# --- a bracket in progress, standings, pools ----------------------------------------------

from tournaments.pairing.bracket import PENDING, RESET_KEY, resolve  # noqa: E402
from tournaments.pairing.roundrobin import snake_pools  # noqa: E402
from tournaments.pairing.standings import (  # noqa: E402
    Decider,
    Result,
    round_robin_standings,
    swiss_standings,
)

shapes = st.sampled_from(
    [
        single_elimination,
        with_consolation,
        lambda n: with_consolation(n, progressive=True),
        double_elimination,
    ]
)


@given(shapes, entrants, seeds)
def test_a_bracket_played_match_by_match_reaches_the_same_champion(shape, count, seed):
    """The site plays a bracket one result at a time: it must agree with playing it at once."""
    bracket = shape(count)
    rng = random.Random(seed)
    results: dict[str, int] = {}
    state = resolve(bracket, results)
    played = 0
    while state.ready():
        slot = rng.choice(state.ready())  # results arrive in any order
        results[slot.match.key] = rng.choice((slot.first, slot.second))
        played += 1
        state = resolve(bracket, results)
    assert state.champion in range(1, count + 1)
    assert all(s.winner is not PENDING for s in state.slots.values())
    # the same results played in bracket order give the same champion (play_out replays a
    # reset final with its own choice, so that case is checked in the test below)
    if RESET_KEY not in results:
        assert play_out(bracket, lambda a, b, m: results[m.key]).champion == state.champion
    # a walkthrough needs a bye or nobody on a side; everything else was played
    assert played == sum(1 for s in state.slots.values() if not s.walkthrough)


def test_a_double_elimination_final_is_replayed_when_the_losers_draw_wins_it():
    bracket = double_elimination(2)  # M1-1: 1 v 2, L: the loser, F1-1: winner v loser
    state = resolve(bracket, {"M1-1": 1})
    final = state.slots["F1-1"]
    assert (final.first, final.second) == (1, 2) and final.ready
    state = resolve(bracket, {"M1-1": 1, "F1-1": 2})  # the unbeaten player loses once
    assert state.slots[RESET_KEY].ready and state.champion is PENDING
    assert resolve(bracket, {"M1-1": 1, "F1-1": 2, RESET_KEY: 2}).champion == 2
    assert RESET_KEY not in resolve(bracket, {"M1-1": 1, "F1-1": 1}).slots


def test_a_result_for_someone_not_in_the_match_is_refused():
    with pytest.raises(ValueError, match="did not play"):
        resolve(single_elimination(4), {"M1-1": 2})


@given(st.integers(2, 40), st.integers(1, 6))
def test_snake_pools_share_the_seeds_out_evenly(count, pools):
    if count < 2 * pools:
        with pytest.raises(ValueError):
            snake_pools(list(range(1, count + 1)), pools)
        return
    dealt = snake_pools(list(range(1, count + 1)), pools)
    assert sorted(p for pool in dealt for p in pool) == list(range(1, count + 1))
    assert max(map(len, dealt)) - min(map(len, dealt)) <= 1
    assert [pool[0] for pool in dealt] == list(range(1, pools + 1))  # top seeds apart


def test_swiss_tie_breaks_are_wins_then_buchholz_then_median():
    seeds = {k: i for i, k in enumerate("ABCDEF", start=1)}
    results = [
        Result("A", "B", "A"),
        Result("C", "D", "C"),
        Result("E", "F", "F"),
        Result("A", "C", "A"),
        Result("B", "F", "B"),
        Result("D", "E", "E"),
    ]
    rows = {r.key: r for r in swiss_standings(results, seeds=seeds)}
    assert rows["A"].wins == 2 and rows["A"].rank == 1
    # B and C and E and F are on one win: Buchholz parts them
    assert rows["B"].buchholz == rows["A"].wins + rows["F"].wins == 3
    assert rows["E"].buchholz == rows["F"].wins + rows["D"].wins == 1
    order = [r.key for r in swiss_standings(results, seeds=seeds)]
    assert order.index("B") < order.index("E")


def test_swiss_median_drops_the_best_and_worst_opponent():
    seeds = {k: i for i, k in enumerate("ABCDEFGH", start=1)}
    results = [Result("A", "B", "A"), Result("A", "C", "A"), Result("A", "D", "A")]
    results += [Result("B", "E", "B"), Result("B", "F", "B"), Result("C", "G", "C")]
    row = next(r for r in swiss_standings(results, seeds=seeds) if r.key == "A")
    assert row.buchholz == 2 + 1 + 0 and row.median == 1


def test_a_swiss_bye_is_a_win_that_adds_nothing_to_buchholz():
    seeds = {"A": 1, "B": 2, "C": 3}
    rows = {r.key: r for r in swiss_standings([Result("A", "B", "B")], seeds=seeds, byes={"C": 1})}
    assert (rows["C"].wins, rows["C"].byes, rows["C"].buchholz) == (1, 1, 0)
    assert rows["B"].rank == rows["C"].rank == 1  # equal on every tie-break


def test_a_swiss_round_missed_is_a_loss_without_an_opponent():
    """A late arrival's missed round, counted as lost: a loss, nothing played, no Buchholz."""
    seeds = {"A": 1, "B": 2, "C": 3}
    rows = {
        r.key: r for r in swiss_standings([Result("A", "B", "A")], seeds=seeds, missed={"C": 1})
    }
    assert (rows["C"].played, rows["C"].wins, rows["C"].losses, rows["C"].missed) == (0, 0, 1, 1)
    assert rows["A"].buchholz == 0 and rows["B"].losses == 1


def test_round_robin_ties_go_to_head_to_head_then_points_difference():
    seeds = {k: i for i, k in enumerate("ABCD", start=1)}
    results = [
        Result("A", "B", "B", 3, 5),  # B beat A
        Result("A", "C", "A", 5, 0),
        Result("A", "D", "A", 5, 1),
        Result("B", "C", "C", 4, 5),
        Result("B", "D", "B", 5, 4),
        Result("C", "D", "D", 2, 5),
    ]
    order = [(r.key, r.wins, r.head_to_head) for r in round_robin_standings(results, seeds=seeds)]
    # A and B on 2 wins: B won their match, so B is ahead of A despite A's bigger difference
    assert order[:2] == [("B", 2, 1), ("A", 2, 0)]
    # C and D on 1 win each and they split nothing: D beat C, head to head
    assert [k for k, *_ in order[2:]] == ["D", "C"]


def test_round_robin_three_way_tie_falls_to_points_difference():
    seeds = {"A": 1, "B": 2, "C": 3}
    results = [
        Result("A", "B", "A", 5, 4),
        Result("B", "C", "B", 5, 0),
        Result("C", "A", "C", 5, 3),
    ]
    rows = round_robin_standings(results, seeds=seeds)
    # one win each, one head-to-head win each: B +4, C -3, A -1
    assert [(r.key, r.difference) for r in rows] == [("B", 4), ("A", -1), ("C", -3)]
    assert [r.difference for r in rows] == sorted((r.difference for r in rows), reverse=True)


def test_after_a_three_way_cycle_the_two_still_level_are_ranked_by_their_match():
    """Issue 25: a cycle A > B > C > A over a fourth player. B and A are level on wins,
    head-to-head wins and points difference (in the mini-league and overall); the tie-breaks
    start again among just those two, and A beat B."""
    seeds = {"A": 1, "B": 2, "C": 3, "D": 4}
    results = [
        Result("B", "A", "A", 2, 7),
        Result("A", "C", "C", 4, 7),
        Result("B", "C", "B", 7, 0),
        Result("A", "D", "A", 7, 0),
        Result("B", "D", "B", 7, 0),
        Result("C", "D", "C", 7, 0),
    ]
    rows = round_robin_standings(results, seeds=seeds)
    assert [(r.key, r.rank, r.shared) for r in rows] == [
        ("A", 1, False),
        ("B", 2, False),
        ("C", 3, False),
        ("D", 4, False),
    ]
    assert rows[0].difference == rows[1].difference == 9
    assert [r.decided_by for r in rows] == [
        Decider.HEAD_TO_HEAD,
        Decider.HEAD_TO_HEAD,
        Decider.HEAD_TO_HEAD_DIFFERENCE,
        Decider.WINS,
    ]


def test_round_robin_tie_breaks_come_in_their_stated_order():
    # the points difference among the three comes before the overall one: C beat D by 11
    seeds = {"A": 1, "B": 2, "C": 3, "D": 4}
    results = [Result("A", "B", "A", 5, 2), Result("C", "A", "C", 5, 4)]
    results += [Result("B", "C", "B", 5, 0), Result("A", "D", "A", 5, 4)]
    results += [Result("B", "D", "B", 5, 4), Result("C", "D", "C", 11, 0)]
    rows = round_robin_standings(results, seeds=seeds)
    assert [r.key for r in rows] == ["A", "B", "C", "D"]
    assert rows[2].difference > rows[0].difference  # +7 overall, last of the three
    # level on wins, never met, the same difference: the points scored decide
    seeds = {"A": 1, "B": 2, "C": 3, "D": 4}
    rows = round_robin_standings(
        [Result("A", "C", "A", 3, 1), Result("B", "D", "B", 5, 3)], seeds=seeds
    )
    assert [(r.key, r.rank, r.decided_by) for r in rows] == [
        ("B", 1, Decider.POINTS_FOR),
        ("A", 2, Decider.POINTS_FOR),
        ("D", 3, Decider.POINTS_FOR),
        ("C", 4, Decider.POINTS_FOR),
    ]


def test_players_level_on_every_tie_break_share_the_place_in_seed_order():
    seeds = {"A": 3, "B": 1, "C": 2}
    results = [Result("A", "B", "A", 7, 3), Result("B", "C", "B", 7, 3)]
    results += [Result("C", "A", "C", 7, 3)]
    rows = round_robin_standings(results, seeds=seeds)
    assert [(r.key, r.rank, r.shared, r.decided_by) for r in rows] == [
        ("B", 1, True, Decider.SHARED),
        ("C", 1, True, Decider.SHARED),
        ("A", 1, True, Decider.SHARED),
    ]


@st.composite
def round_robins(draw):
    """A pool played in part or in full: each pair meets at most once, the winner reaching a
    short length (so that ties are common) or winning a walkover (0-0); unique seeds."""
    keys = [f"P{i}" for i in range(1, draw(st.integers(2, 7)) + 1)]
    results = []
    for first, second in itertools.combinations(keys, 2):
        how = draw(st.sampled_from(["unplayed", "first", "second", "walkover"]))
        if how == "unplayed":
            continue
        winner = draw(st.sampled_from([first, second])) if how == "walkover" else None
        if winner is not None:
            results.append(Result(first, second, winner))
            continue
        length = draw(st.sampled_from([1, 3]))
        lost = draw(st.integers(0, length - 1))
        won_first = how == "first"
        points = (length, lost) if won_first else (lost, length)
        results.append(Result(first, second, first if won_first else second, *points))
    seeds = dict(zip(keys, draw(st.permutations(range(1, len(keys) + 1))), strict=True))
    return results, seeds


def _mini(keys, results):
    """Wins and points difference in the matches among ``keys`` (the slow way)."""
    return {
        key: (
            sum(r.winner == key for r in results if {r.first, r.second} <= keys),
            sum(
                (r.first_points - r.second_points) * (1 if r.first == key else -1)
                for r in results
                if key in (r.first, r.second) and {r.first, r.second} <= keys
            ),
        )
        for key in keys
    }


@given(round_robins())
def test_round_robin_standings_are_a_total_preorder_by_wins(pool):
    results, seeds = pool
    rows = round_robin_standings(results, seeds=seeds)
    assert sorted(r.key for r in rows) == sorted(seeds)
    assert [r.wins for r in rows] == sorted((r.wins for r in rows), reverse=True)
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks)
    for row in rows:  # 1, =2, =2, 4: one more than the players placed above
        level = [r for r in rows if r.rank == row.rank]
        assert row.rank == 1 + sum(r.rank < row.rank for r in rows)
        assert row.shared == (len(level) > 1) == (row.decided_by is Decider.SHARED)
        # a shared place is level on everything: wins, the matches among them, overall
        keys = {r.key for r in level}
        assert len({(r.wins, r.difference, r.points_for) for r in level}) == 1
        assert len(set(_mini(keys, results).values())) == 1
        if row.shared:  # the seed only orders a shared place
            assert [r.key for r in level] == sorted(keys, key=seeds.__getitem__)


@given(round_robins())
def test_a_player_who_beat_everyone_level_on_wins_ranks_above_them(pool):
    results, seeds = pool
    rows = round_robin_standings(results, seeds=seeds)
    beat = {(r.winner, r.second if r.winner == r.first else r.first) for r in results}
    for row in rows:
        level = [r for r in rows if r.wins == row.wins and r is not row]
        if level and all((row.key, other.key) in beat for other in level):
            assert all(row.rank < other.rank for other in level)


@given(round_robins(), st.randoms(use_true_random=False))
def test_the_order_results_come_in_changes_no_standing(pool, rng):
    results, seeds = pool
    shuffled = [
        Result(r.second, r.first, r.winner, r.second_points, r.first_points)
        if rng.random() < 0.5
        else r
        for r in results
    ]
    rng.shuffle(shuffled)
    keys = list(seeds)
    rng.shuffle(keys)
    again = round_robin_standings(shuffled, seeds={key: seeds[key] for key in keys})

    def seen(rows):  # everything but the order the opponents were met in
        return [(replace(r, opponents=()), sorted(r.opponents)) for r in rows]

    assert seen(again) == seen(round_robin_standings(results, seeds=seeds))


def test_a_swiss_score_group_is_folded_top_half_against_bottom_half():
    field = [SwissPlayer(f"S{rank}", 0, rank) for rank in range(1, 9)]
    field += [SwissPlayer(f"T{rank}", 1, rank) for rank in range(9, 13)]
    pairs = {(p.first, p.second) for p in swiss_round(field)}
    assert pairs == {
        ("S1", "S5"),
        ("S2", "S6"),
        ("S3", "S7"),
        ("S4", "S8"),
        ("T9", "T11"),
        ("T10", "T12"),
    }
