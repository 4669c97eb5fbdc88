"""Every action of a director's evening can be put right, through a service with an audit
entry, and refused in plain words once a later match it fed has begun (US rules 4.10): a
withdrawal, a walkover, a final score, a check-in and the draw itself."""

import pytest
from django.core.exceptions import ValidationError

from club.audit import audit_sentence
from club.models import AuditEntry
from matches.models import Match
from matches.services import match_result_clear, match_walkover
from tournaments.models import Bye, Entry, Event, Place
from tournaments.queries.events import event_matches
from tournaments.queries.knockouts import event_knockout
from tournaments.services import (
    entry_check_in,
    entry_check_in_undo,
    entry_reinstate,
    entry_withdraw,
    event_draw,
    event_pair_next_round,
    event_redraw,
)

from .helpers import by_key

pytestmark = pytest.mark.django_db


def said(code, **filters):
    return audit_sentence(AuditEntry.objects.filter(code=code, **filters).latest("id"))


def entry_of(event, player):
    return event.entries.select_related("event__tournament", "player").get(player=player)


def keys(event):
    return {m.place.bracket_key: str(m) for m in event_matches(event=event)}


# --- a walkover put right -----------------------------------------------------------------


def test_a_walkover_goes_to_the_other_player_who_moves_on_instead(event_with, finish, director):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")  # P01 v P04, P02 v P03
    match_walkover(match=m11, winner=0, user=director)
    finish(m12, m12.player_a)
    assert keys(event)["M2-1"] == "P01 – P02 (5)"
    match_walkover(match=Match.objects.get(pk=m11.pk), winner=1, user=director)
    assert keys(event)["M2-1"] == "P04 – P02 (5)"
    assert said("result.walkover", match_id=m11.pk) == (
        "director corrected the result to a walkover to P04 (it was a walkover to P01)."
    )


def test_a_walkover_taken_back_is_a_match_to_play_and_the_next_match_waits(
    event_with, finish, record, director
):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    match_walkover(match=m11, winner=0, user=director)
    finish(m12, m12.player_a)
    assert "M2-1" in keys(event)
    match_result_clear(match=Match.objects.get(pk=m11.pk), user=director)
    m11.refresh_from_db()
    assert (m11.status, m11.walkover_winner) == (Match.Status.SCHEDULED, None)
    assert "M2-1" not in keys(event)  # its first player is not known again
    assert said("result.cleared", match_id=m11.pk) == (
        "director took back a walkover to P01: the match is to be played."
    )
    record(m11, 1, cube=4, result="gammon")  # and it is played: P04 wins 8 points
    assert Match.objects.get(pk=m11.pk).status == Match.Status.FINISHED
    assert keys(event)["M2-1"] == "P04 – P02 (5)"


def test_a_final_score_taken_back_or_corrected_stands_once_the_next_match_has_begun(
    event_with, finish, record, director
):
    from matches.services import match_record_final_score

    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    finish(m11, m11.player_a, 3)
    finish(m12, m12.player_a)
    record(by_key(event, "M2-1"), 0)  # the final has begun
    for undo in (
        lambda m: match_result_clear(match=m, user=director),
        lambda m: match_record_final_score(match=m, score_a=3, score_b=5, user=director),
        lambda m: match_walkover(match=m, winner=1, user=director),
    ):
        with pytest.raises(ValidationError, match=r"started a later match .*US rules 4\.10"):
            undo(Match.objects.get(pk=m11.pk))
    m11.refresh_from_db()
    assert (m11.status, m11.final_score_a, m11.final_score_b) == ("finished", 5, 3)


def test_only_a_walkover_or_a_final_score_is_taken_back(match5, record, director):
    with pytest.raises(ValidationError, match="no result to take back"):
        match_result_clear(match=match5, user=director)
    record(match5, 0)
    with pytest.raises(ValidationError, match="correct them one by one"):
        match_result_clear(match=Match.objects.get(pk=match5.pk), user=director)


# --- a withdrawal undone ------------------------------------------------------------------


def test_a_withdrawal_undone_takes_the_opponent_back_out_of_the_next_match(
    event_with, finish, director
):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")  # P01 v P04, P02 v P03
    finish(m12, m12.player_a)
    entry = entry_of(event, m11.player_b)
    entry_withdraw(entry=entry, user=director)
    assert keys(event)["M2-1"] == "P01 – P02 (5)"  # P01 moved on by the walkover
    reinstated = entry_reinstate(entry=entry, user=director)
    assert reinstated.status == Entry.Status.CHECKED_IN
    m11.refresh_from_db()
    assert m11.status == Match.Status.SCHEDULED and m11.walkover_winner is None
    assert "M2-1" not in keys(event)
    assert said("entry.reinstated") == "director reinstated P04 in single 4."
    assert said("result.cleared", match_id=m11.pk) == (
        "director took back a walkover to P01: the match is to be played."
    )
    finish(m11, m11.player_b)  # and P04 plays it, and wins
    assert keys(event)["M2-1"] == "P04 – P02 (5)"


def test_a_walkover_match_made_after_the_withdrawal_is_played_again(event_with, finish, director):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    finish(m11, m11.player_a)  # P01 is through, and withdraws before the final exists
    p01 = entry_of(event, m11.player_a)
    entry_withdraw(entry=p01, user=director)
    finish(m12, m12.player_b)
    final = by_key(event, "M2-1")
    assert (final.status, final.walkover_winner) == (Match.Status.WALKOVER, 1)
    entry_reinstate(entry=p01, user=director)
    final.refresh_from_db()
    assert (str(final), final.status) == ("P01 – P03 (5)", Match.Status.SCHEDULED)
    assert event_knockout(event=event).champion is None


def test_a_withdrawal_stands_once_the_match_its_walkover_fed_has_begun(
    event_with, finish, record, director
):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    entry = entry_of(event, m11.player_b)
    entry_withdraw(entry=entry, user=director)
    finish(m12, m12.player_a)
    record(by_key(event, "M2-1"), 0)  # P01 v P02 has begun
    with pytest.raises(ValidationError) as refused:
        entry_reinstate(entry=entry, user=director)
    assert refused.value.messages == [
        "P04 cannot be reinstated: the walkover in P01 – P04 (5) sent P01 on, and the later "
        "match P01 – P02 (5) has begun (US rules 4.10)."
    ]
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    assert Match.objects.get(pk=m11.pk).status == Match.Status.WALKOVER


def test_a_withdrawal_walkover_is_not_taken_back_while_the_player_is_withdrawn(
    event_with, director
):
    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11 = by_key(event, "M1-1")
    entry_withdraw(entry=entry_of(event, m11.player_b), user=director)
    with pytest.raises(ValidationError, match="P04 has withdrawn from single 4: reinstate them"):
        match_result_clear(match=Match.objects.get(pk=m11.pk), user=director)
    assert Match.objects.get(pk=m11.pk).status == Match.Status.WALKOVER


def test_an_earlier_walkover_is_not_undone_with_the_withdrawal(event_with, finish, director):
    """A no-show recorded as a walkover, then a withdrawal: reinstating undoes only what the
    withdrawal did (the consolation match it made a walkover)."""
    event = event_with(Event.Format.CONSOLATION, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    match_walkover(match=m11, winner=0, user=director)  # P04 did not come to M1-1
    p04 = entry_of(event, m11.player_b)
    entry_withdraw(entry=p04, user=director)
    finish(m12, m12.player_a)  # P03 joins P04 in the consolation: a walkover to P03
    consolation = next(m for k, m in keys(event).items() if k.startswith("C"))
    assert "P04" in consolation
    entry_reinstate(entry=p04, user=director)
    assert Match.objects.get(pk=m11.pk).walkover_winner == 0  # the no-show stands
    c = Match.objects.get(place__event=event, place__bracket_key__startswith="C")
    assert c.status == Match.Status.SCHEDULED


def test_a_withdrawal_before_the_draw_is_undone_to_what_the_entry_was(event_with, director):
    event = event_with(Event.Format.SINGLE, 2)
    checked, registered = event.entries.select_related("event__tournament", "player")
    entry_check_in_undo(entry=registered, user=director)
    for entry, was in ((checked, "checked_in"), (registered, "registered")):
        entry_withdraw(entry=entry, user=director)
        assert entry_reinstate(entry=entry, user=director).status == was
    with pytest.raises(ValidationError, match="has not withdrawn"):
        entry_reinstate(entry=checked, user=director)


def test_a_swiss_player_left_out_of_a_round_is_not_reinstated(event_with, director):
    event = event_with(Event.Format.SWISS, 4, swiss_rounds=3)
    event_draw(event=event, seed=3, user=director)
    first = event_matches(event=event)[0]
    entry = entry_of(event, first.player_a)
    entry_withdraw(entry=entry, user=director)
    for match in event_matches(event=event):
        if not match.decided:
            match_walkover(match=match, winner=0, user=director)
    event_pair_next_round(event=event, user=director)
    with pytest.raises(ValidationError, match="round 2 of swiss 4 was paired without them"):
        entry_reinstate(entry=entry, user=director)


# --- a check-in undone --------------------------------------------------------------------


def test_a_check_in_is_undone_only_before_the_draw(event_with, director):
    event = event_with(Event.Format.SINGLE, 3)
    entry = event.entries.select_related("event__tournament", "player").first()
    undone = entry_check_in_undo(entry=entry, user=director)
    assert undone.status == Entry.Status.REGISTERED
    assert said("entry.check_in_undone") == (
        f"director undid the check-in of {entry.player.name} for single 3."
    )
    entry_check_in(entry=entry, user=director)
    event_draw(event=event, seed=1, user=director)
    with pytest.raises(ValidationError, match="a check-in can only be undone before it"):
        entry_check_in_undo(entry=entry, user=director)
    assert event.entries.get(pk=entry.pk).status == Entry.Status.CHECKED_IN


# --- the draw made again ------------------------------------------------------------------


def test_a_redraw_replaces_the_matches_and_keeps_the_old_seed_in_the_audit(event_with, director):
    event = event_with(Event.Format.SINGLE, 6)
    event_draw(event=event, seed=11, user=director)
    old = keys(event)
    old_seeds = {e.player.name: e.seed for e in event.entries.select_related("player")}
    match_walkover(match=by_key(event, "M1-2"), winner=0, user=director)  # not a beginning
    redrawn = event_redraw(event=event, seed=12, user=director)
    assert redrawn.draw_seed == 12 and event.draw_seed == 12
    seeds = {e.player.name: e.seed for e in event.entries.select_related("player")}
    assert seeds != old_seeds and sorted(seeds.values()) == [1, 2, 3, 4, 5, 6]
    assert keys(event) != old and len(keys(event)) == 2  # round 1 again; the walkover is gone
    assert Place.objects.filter(event=event).count() == 2
    assert said("event.redrawn") == (
        "director undid the draw of single 6 (seed 11) to make it again; its 3 matches, none "
        "begun, are removed."
    )
    before = AuditEntry.objects.filter(code="event.redrawn").latest("id").before
    assert before["seed"] == 11 and sorted(s for s, _ in before["seeds"]) == list(range(1, 7))
    assert said("event.drawn") == "director made the draw of single 6 with the seed 12."
    again = event_redraw(event=event, user=director)  # a fresh random seed
    assert again.draw_seed not in (None, 12)


def test_a_redraw_confirmed_twice_draws_once(director_client, event_with):
    """A second click on the confirmation (or another director's redraw) does not draw again
    unseen: the confirmation carries the draw it was shown."""
    from django.urls import reverse

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=21, user=event.tournament.directors.get())
    url = reverse("redraw", args=[event.pk])
    asked = director_client.post(url, {"seed": ""})
    drawn_at = asked.context["confirm"].fields[1][1]
    confirm = {"seed": "", "drawn_at": drawn_at, "confirm": "1"}
    assert "The draw is made again." in page_text(director_client.post(url, confirm, follow=True))
    seed = Event.objects.get(pk=event.pk).draw_seed
    again = director_client.post(url, confirm, follow=True)
    assert "was made again meanwhile: nothing was changed" in page_text(again)
    assert Event.objects.get(pk=event.pk).draw_seed == seed


def test_a_redraw_is_refused_once_a_match_has_begun(event_with, record, director):
    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=5, user=director)
    match = by_key(event, "M1-1")
    record(match, 0)
    before = keys(event)
    with pytest.raises(ValidationError, match=r"can no longer be made again: the match .* begun"):
        event_redraw(event=event, seed=6, user=director)
    assert keys(event) == before and Event.objects.get(pk=event.pk).draw_seed == 5


def test_a_swiss_is_redrawn_with_its_byes(event_with, director):
    event = event_with(Event.Format.SWISS, 5, swiss_rounds=2)
    event_draw(event=event, seed=1, user=director)
    assert Bye.objects.filter(event=event).count() == 1
    event_redraw(event=event, seed=2, user=director)
    assert Bye.objects.filter(event=event).count() == 1
    assert len(keys(event)) == 2


def test_undoing_asks_the_policy(event_with, director, member):
    from django.core.exceptions import PermissionDenied

    event = event_with(Event.Format.SINGLE, 4)
    entry = event.entries.select_related("event__tournament", "player").first()
    for undo in (
        lambda: entry_check_in_undo(entry=entry, user=member),
        lambda: entry_reinstate(entry=entry, user=member),
        lambda: event_redraw(event=event, user=member),
    ):
        with pytest.raises(PermissionDenied):
            undo()


# --- through the pages --------------------------------------------------------------------


def page_text(response):
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_withdrawing_asks_first_then_reinstating_puts_it_right(director_client, event_with):
    from django.urls import reverse

    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=event.tournament.directors.get())
    m11 = by_key(event, "M1-1")
    entry = entry_of(event, m11.player_b)
    url = reverse("entry_withdraw", args=[entry.pk])
    asked = director_client.post(url)  # the button in the entries table
    assert asked.status_code == 200
    assert "Withdraw P04?" in page_text(asked)
    assert "P01 gets a walkover in P01 – P04 (5)." in page_text(asked)
    assert 'name="confirm" value="1"' in asked.content.decode()
    assert entry_of(event, m11.player_b).status == Entry.Status.CHECKED_IN  # nothing yet
    done = director_client.post(url, {"confirm": "1"}, follow=True)
    assert "P04 has withdrawn." in page_text(done)
    assert Match.objects.get(pk=m11.pk).status == Match.Status.WALKOVER
    assert 'Reinstate<span class="visually-hidden"> P04</span>' in done.content.decode()
    back = director_client.post(reverse("entry_reinstate", args=[entry.pk]), follow=True)
    assert "P04 is reinstated." in page_text(back)
    assert Match.objects.get(pk=m11.pk).status == Match.Status.SCHEDULED


def test_a_refused_reinstatement_is_said_in_plain_words(director_client, event_with, record):
    from django.urls import reverse

    event = event_with(Event.Format.SINGLE, 4, seeding=Event.Seeding.RATING)
    director = event.tournament.directors.get()
    event_draw(event=event, user=director)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    entry = entry_of(event, m11.player_b)
    entry_withdraw(entry=entry, user=director)
    final = {"score_a": 5, "score_b": 0, "version": Match.objects.get(pk=m12.pk).version}
    director_client.post(reverse("final_score", args=[m12.pk]), final)
    record(by_key(event, "M2-1"), 0)
    response = director_client.post(reverse("entry_reinstate", args=[entry.pk]), follow=True)
    assert response.status_code == 200
    assert "P04 cannot be reinstated: the walkover in P01 – P04 (5) sent P01 on" in page_text(
        response
    )


def test_a_check_in_is_undone_from_the_entries_table(director_client, event_with):
    from django.urls import reverse

    event = event_with(Event.Format.SINGLE, 2)
    entry = event.entries.select_related("player").first()
    page = director_client.get(event.get_absolute_url()).content.decode()
    said = f'Undo check-in<span class="visually-hidden"> {entry.player.name}</span>'
    assert said in page
    done = director_client.post(reverse("entry_check_in_undo", args=[entry.pk]), follow=True)
    assert f"{entry.player.name} is no longer checked in." in page_text(done)
    assert event.entries.get(pk=entry.pk).status == Entry.Status.REGISTERED
    assert "1 player checked in" in page_text(done)
    entry_check_in(entry=entry, user=event.tournament.directors.get())
    event_draw(event=event, seed=1, user=event.tournament.directors.get())
    drawn = director_client.get(event.get_absolute_url()).content.decode()
    assert "Undo check-in" not in drawn and "Withdraw" in drawn  # over at the draw


def test_the_redraw_asks_first_and_is_offered_only_before_a_match_begins(
    director_client, event_with, record
):
    from django.urls import reverse

    event = event_with(Event.Format.SINGLE, 4)
    event_draw(event=event, seed=21, user=event.tournament.directors.get())
    page = director_client.get(event.get_absolute_url()).content.decode()
    assert 'id="redraw"' in page
    url = reverse("redraw", args=[event.pk])
    asked = director_client.post(url, {"seed": "22"})
    assert asked.status_code == 200
    said_there = page_text(asked)
    assert "Redraw single 4?" in said_there
    assert "made again with the seed 22" in said_there
    assert "Its 2 matches, none begun, are removed" in said_there
    assert "The old seed, 21, stays in the changes." in said_there
    assert Event.objects.get(pk=event.pk).draw_seed == 21  # nothing yet
    done = director_client.post(url, {"seed": "22", "confirm": "1"}, follow=True)
    assert "The draw is made again." in page_text(done)
    assert Event.objects.get(pk=event.pk).draw_seed == 22
    changes = page_text(director_client.get(event.tournament.get_absolute_url()))
    assert "undid the draw of single 4 (seed 21)" in changes
    record(by_key(event, "M1-1"), 0)
    assert 'id="redraw"' not in director_client.get(event.get_absolute_url()).content.decode()
    refused = director_client.post(url, {"seed": "", "confirm": "1"}, follow=True)
    assert "can no longer be made again" in page_text(refused)
    assert Event.objects.get(pk=event.pk).draw_seed == 22


@pytest.mark.parametrize("players", [8, 32])
def test_the_confirmation_pages_take_the_same_queries_for_any_field(
    director_client, event_with, players
):
    """Pinned: withdrawing 1 player's confirmation and the redraw's do not grow with the field."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    event = event_with(Event.Format.SINGLE, players)
    event_draw(event=event, seed=3, user=event.tournament.directors.get())
    entry = event.entries.first()
    counts = []
    for url, data in (
        (reverse("entry_withdraw", args=[entry.pk]), {}),
        (reverse("redraw", args=[event.pk]), {"seed": "4"}),
    ):
        with CaptureQueriesContext(connection) as queries:
            assert director_client.post(url, data).status_code == 200
        counts.append(len(queries))
    assert counts == [9, 7]  # the same for 8 and 32 players (withdrawal: is the event over?)


def test_a_withdrawal_undone_in_a_double_elimination_takes_back_its_walkover_chain(
    event_with, finish, director
):
    """Out of the main draw by the walkover, then a walkover in the losers' draw as its match
    came: both are taken back, latest first, and the losers' match is gone again."""
    event = event_with(Event.Format.DOUBLE, 4, seeding=Event.Seeding.RATING)
    event_draw(event=event, user=director)
    before = keys(event)
    m11, m12 = by_key(event, "M1-1"), by_key(event, "M1-2")
    p04 = entry_of(event, m11.player_b)
    entry_withdraw(entry=p04, user=director)
    finish(m12, m12.player_a)  # P03 joins P04 in the losers' draw: a walkover at once
    losers = [m for m in event_matches(event=event) if m.place.bracket_key.startswith("L")]
    assert [m.status for m in losers] == [Match.Status.WALKOVER]
    entry_reinstate(entry=p04, user=director)
    after = keys(event)
    assert Match.objects.get(pk=m11.pk).status == Match.Status.SCHEDULED
    assert not any(k.startswith("L") for k in after)  # the loser of M1-1 is not known again
    assert set(after) == set(before) and after["M1-2"] == before["M1-2"]
