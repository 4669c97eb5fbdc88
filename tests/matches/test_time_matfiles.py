"""Match files of matches with penalty points and forfeits (issue 28; tournament rules): the
site writes each as a comment line in its place, reads a file back into the same match with
its penalties and forfeit recorded through the director's services, and a dispute over such
a match reports no problem that is not there."""

import pytest
from django.core.exceptions import ValidationError

from club.policy import SYSTEM
from club.services import player_create
from matches.disputes import (
    dispute_open,
    dispute_report,
    dispute_sheet_plan,
    dispute_sheets_set,
)
from matches.history import match_derived
from matches.matfiles import mat_import, match_mat
from matches.models import Dispute, Match
from matches.penalties import match_forfeit, match_penalty_award
from matches.services import match_create
from rules.match import Forfeit, ForfeitReason, GameResult, Penalty, PenaltyReason
from rules.matfile import read_mat
from rules.replay import replay_match
from tests.helpers import page_words
from tests.rules.test_matfile_penalties import PLAYERS, random_history

pytestmark = pytest.mark.django_db


def steps(history):
    """A history as the file can tell it: who won or was penalised, how many points, why."""
    out = []
    for entry in history:
        if isinstance(entry, GameResult):
            out.append(("game", entry.winner, entry.points))
        elif isinstance(entry, Penalty):
            out.append(("penalty", entry.player, entry.points, entry.reason))
        else:
            out.append(("forfeit", entry.player, entry.reason))
    return out


def site_match(length, names=PLAYERS):
    a, b = (player_create(name=name, user=SYSTEM) for name in names)
    return match_create(player_a=a, player_b=b, length=length, user=SYSTEM)


def fresh(match):
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("seed", [*range(10), 22, 35])  # 8, 22, 35: a flag fell in a game
def test_a_file_with_penalties_and_a_forfeit_comes_in_and_goes_out_the_same(seed, director):
    """Any history of games, penalty points and a forfeit, written by the engine: imported,
    the site derives the same match, and its own export reads back to it with no problem."""
    expected, text = random_history(seed, 7)
    match = site_match(7)
    plan = mat_import(match=match, text=text, user=director)
    assert plan.problem_count == 0
    derived = match_derived(fresh(match))
    assert steps(derived.results) == steps(expected.results)
    assert derived.score == expected.score and derived.winner == expected.winner
    again = replay_match(read_mat(match_mat(match=fresh(match))))
    assert again.problems == ()
    assert steps(again.history) == steps(expected.results)
    assert again.final_score == expected.score


def test_penalties_are_written_before_the_game_they_precede_and_the_forfeit_last(director, record):
    """Games recorded by hand: the file has their results, each penalty line before the game
    it precedes (whose header counts it), and the time forfeit after the last game."""
    match = site_match(7)
    match_penalty_award(
        match=fresh(match), side=1, points=2, reason="lateness", minutes_late=10, user=director
    )
    record(match, 1, cube=2)
    match_penalty_award(
        match=fresh(match), side=0, points=1, reason="director", note="Slow play", user=director
    )
    record(match, 0)
    match_forfeit(match=fresh(match), side=0, reason="time", user=director)
    text = match_mat(match=fresh(match))
    lines = [line.strip() for line in text.splitlines()]
    first, second = lines.index("Game 1"), lines.index("Game 2")
    assert lines[first - 1] == "; Penalty: Luca Esposito 2 points (lateness)"
    assert lines[first + 1].split()[-1] == "0" and lines[first + 1].split()[3] == "2"
    assert lines[second - 1] == "; Penalty: Marco Bianchi 1 point (director)"
    assert lines[second + 1].split()[3] == "2" and lines[second + 1].split()[-1] == "3"
    assert [line for line in lines if line][-1] == "; Forfeit: Marco Bianchi (time)"
    assert "and the match" not in text  # the forfeit won it, not the last game
    read = read_mat(text)
    assert read.games[0].penalties == (Penalty(1, 2, PenaltyReason.LATENESS),)
    assert read.games[1].penalties == (Penalty(0, 1, PenaltyReason.DIRECTOR),)
    assert read.after == (Forfeit(0, ForfeitReason.TIME),)
    assert replay_match(read).final_score == (3, 7)


def test_a_match_forfeited_before_its_first_game_is_a_file_too(director):
    match = site_match(5)
    match_penalty_award(
        match=fresh(match), side=0, points=2, reason="lateness", minutes_late=12, user=director
    )
    match_forfeit(match=fresh(match), side=0, reason="lateness", user=director)
    text = match_mat(match=fresh(match))
    replay = replay_match(read_mat(text))
    assert replay.problems == () and replay.final_score == (0, 5) and replay.winner == 1
    other = site_match(5, names=("Marco Bianchi", "Luca Esposito"))
    mat_import(match=other, text=text, user=director)
    other = fresh(other)
    assert (other.forfeit, other.retired, other.final_score_a, other.final_score_b) == (
        "lateness",
        0,
        0,
        5,
    )
    assert [(p.side, p.points, p.reason) for p in other.penalties.all()] == [(0, 2, "lateness")]


def test_the_columns_of_a_file_swapped_give_each_penalty_to_its_player(director):
    """The file's left column is the match's player B: each penalty and the forfeit go to
    the player the file names, not to the column."""
    expected, text = random_history(3, 5, penalty_rate=0.6, forfeit_rate=0.0)
    match = site_match(5, names=(PLAYERS[1], PLAYERS[0]))
    plan = mat_import(match=match, text=text, user=director)
    assert plan.swapped and plan.problem_count == 0
    mine = match_derived(fresh(match))
    flipped = [(kind, 1 - who, *rest) for kind, who, *rest in steps(expected.results)]
    assert steps(mine.results) == flipped
    assert mine.score == tuple(reversed(expected.score))


def test_a_match_with_penalties_recorded_takes_no_import(director):
    match = site_match(7)
    match_penalty_award(
        match=fresh(match), side=1, points=1, reason="director", note="Slow play", user=director
    )
    _, text = random_history(1, 7)
    with pytest.raises(ValidationError, match="already has penalty points"):
        mat_import(match=match, text=text, user=director)


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_a_dispute_over_the_site_s_own_log_of_a_match_with_penalties_finds_no_problem(
    seed, director
):
    """The site's log exported and replayed: the penalty points account for every jump of
    the score, so every game agrees and no problem is listed."""
    expected, text = random_history(seed, 7, forfeit_rate=0.0)
    match = site_match(7)
    mat_import(match=match, text=text, user=director)
    dispute = dispute_open(match=fresh(match), user=director)
    report = dispute_report(dispute=dispute)
    assert report.plan.problem_count == 0 and report.parting is None
    assert all(g.penalties_agree for g in report.games)
    assert [len(g.log_penalties) for g in report.games] == [
        len(g.recorded_penalties) for g in report.games
    ]
    assert report.log_score == report.recorded_score == expected.score
    derived = match_derived(fresh(match))
    assert [g.log_score_after for g in report.games] == [g.score_after for g in derived.games]


def test_a_file_without_the_penalty_lines_is_still_reported_as_a_score_jump(director):
    """A real program's file whose score jumps (the penalties not written) is reported as
    before (WBF 3): the penalty lines are what make the jump a penalty."""

    def between_games(history):
        kinds = [type(entry) for entry in history.results]
        return GameResult in kinds and Penalty in kinds[kinds.index(GameResult) :]

    text = next(
        text
        for match, text in (random_history(seed, 7, forfeit_rate=0.0) for seed in range(40))
        if between_games(match)
    )
    head, first, rest = text.partition(" Game 1\n")
    bare = (
        head
        + first
        + "\n".join(line for line in rest.splitlines() if not line.startswith("; Penalty"))
    )
    match = site_match(7)
    mat_import(match=match, text=text, user=director)
    dispute = dispute_open(match=fresh(match), user=director, text=bare, filename="bare.mat")
    report = dispute_report(dispute=dispute)
    assert any(p.kind.value == "score" for p in report.plan.problems)


def test_the_dispute_page_shows_each_penalty_beside_the_recorded_one(director, director_client):
    """A file whose first penalty line says one point more than the site recorded: the row
    of penalty points before that game differs, and the log parts ways there; in English
    and Italian."""

    def penalty_first(history):
        return isinstance(history.results[0], Penalty)

    expected, text = next(
        (match, text)
        for match, text in (random_history(seed, 7, forfeit_rate=0.0) for seed in range(40))
        if penalty_first(match) and expected_points(match) < 5
    )
    match = site_match(7)
    mat_import(match=match, text=text, user=director)
    first = expected.results[0]
    written = f"{first.points} point{'s' if first.points != 1 else ''} ("
    more = text.replace(written, f"{first.points + 1} points (", 1)
    dispute = dispute_open(match=fresh(match), user=director, text=more, filename="more.mat")
    report = dispute_report(dispute=dispute)
    game_1 = report.games[0]
    assert not game_1.penalties_agree and report.parting == 1
    logged = game_1.log_penalties[0]
    assert (logged.player, logged.points) == (first.player, first.points + 1)
    url = f"/matches/{match.pk}/disputes/{dispute.pk}/"
    english = page_words(director_client.get(url))
    scorer = PLAYERS[1 - first.player]
    assert "Penalty points before game 1" in english
    assert f"{scorer} +{first.points + 1} (" in english and f"{scorer} +{first.points} (" in english
    italian = page_words(director_client.get(url, HTTP_ACCEPT_LANGUAGE="it"))
    assert "Punti di penalità prima del gioco 1" in italian


def expected_points(history):
    """The points of the penalties before the first game."""
    total = 0
    for entry in history.results:
        if not isinstance(entry, Penalty):
            break
        total += entry.points
    return total


def test_a_forfeit_the_log_gives_the_other_player_is_shown_after_the_last_game(
    director, director_client
):
    """The site's log and an uploaded file agree game by game, but the file has the other
    player forfeiting: the row after the last game differs, in words."""
    expected, text = next(
        (match, text)
        for match, text in (random_history(seed, 7) for seed in range(60))
        if match.forfeit is not None and match.games and "; Forfeit" in text
    )
    loser = expected.forfeit.forfeit.player
    match = site_match(7)
    mat_import(match=match, text=text, user=director)
    own = dispute_report(dispute=dispute_open(match=fresh(match), user=director))
    assert own.after_agrees and own.plan.problem_count == 0
    swapped = text.replace(f"; Forfeit: {PLAYERS[loser]}", f"; Forfeit: {PLAYERS[1 - loser]}")
    dispute = dispute_open(match=fresh(match), user=director, text=swapped, filename="x.mat")
    report = dispute_report(dispute=dispute)
    assert not report.after_agrees
    page = page_words(director_client.get(f"/matches/{match.pk}/disputes/{dispute.pk}/"))
    assert "After the last game" in page
    assert f"{PLAYERS[1 - loser]} forfeits" in page and f"{PLAYERS[loser]} forfeits" in page
    assert "the log and the site record different penalty points or forfeit" in page


def test_a_sheet_is_not_applied_to_a_forfeited_match_until_the_forfeit_is_taken_back(
    director, record
):
    match = site_match(5)
    record(match, 0)
    match_forfeit(match=fresh(match), side=1, reason="time", user=director)
    dispute = dispute_open(match=fresh(match), user=director, text=match_mat(match=fresh(match)))
    dispute_sheets_set(dispute=dispute, sheet_a=(5, 2), sheet_b=None, user=director)
    plan = dispute_sheet_plan(dispute=Dispute.objects.get(pk=dispute.pk))
    assert plan.refusal == (
        "Luca Esposito forfeited this match: take the forfeit back on the match's page before "
        "a score sheet can be applied."
    )
