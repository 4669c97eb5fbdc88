"""Late arrivals: into a knockout's bye, into a Swiss from the next round, and check-in
opened again by taking the draw back."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club.models import AuditEntry
from matches.models import Match
from tournaments.models import Entry, Event, Tournament
from tournaments.selectors import event_knockout, event_matches, event_standings
from tournaments.services import (
    entry_late_add,
    entry_reinstate,
    entry_withdraw,
    event_draw,
    event_draw_undo,
    event_pair_next_round,
    tournament_late_rounds_set,
)

pytestmark = pytest.mark.django_db


def by_key(event):
    return {m.place.bracket_key: m for m in event_matches(event=event)}


@pytest.fixture
def six(event_with, director):
    """A knockout of 6 drawn: seeds 1 and 2 have byes (M1-1 and M1-3 are walkthroughs)."""
    event = event_with(Event.Format.SINGLE, 6)
    event_draw(event=event, seed=6, user=director)
    return event


def test_a_late_arrival_takes_the_next_bye_and_the_bye_becomes_a_match(six, field, director):
    knockout = event_knockout(event=six)
    assert knockout.bracket.size == 8 and len(knockout.players) == 6
    byes_before = [k for k, s in knockout.state.slots.items() if s.walkthrough]
    late = field(1, "Late")[0]

    entry = entry_late_add(event=six, player=late, user=director)

    assert entry.status == Entry.Status.CHECKED_IN and entry.seed == 7
    after = event_knockout(event=six)
    byes_after = [k for k, s in after.state.slots.items() if s.walkthrough]
    assert len(byes_after) == len(byes_before) - 1  # one bye fewer
    (filled,) = set(byes_before) - set(byes_after)
    match = by_key(six)[filled]
    assert late.pk in (match.player_a_id, match.player_b_id)  # the bye is now a match
    assert match.status == Match.Status.SCHEDULED
    audit = AuditEntry.objects.get(code="entry.late")
    assert audit.params["key"] == filled


def test_the_bye_holders_round_two_match_goes_back_until_the_new_match_is_played(
    event_with, field, director, finish
):
    event = event_with(Event.Format.SINGLE, 6)
    event_draw(event=event, seed=6, user=director)
    matches = by_key(event)
    for key in ("M1-2", "M1-4"):  # both first-round matches played: round 2 matches made
        finish(matches[key], matches[key].player_a)
    second_round = {k for k in by_key(event) if k.startswith("M2")}
    assert second_round == {"M2-1", "M2-2"}
    late = field(1, "Late")[0]

    entry_late_add(event=event, player=late, user=director)

    now = by_key(event)
    knockout = event_knockout(event=event)
    filled = next(k for k, m in now.items() if late.pk in (m.player_a_id, m.player_b_id))
    # the round 2 match fed by the bye waits for the winner of the new match
    fed = next(
        s.match.key
        for s in knockout.state.slots.values()
        if s.match.round == 2
        and any(getattr(src, "key", None) == filled for src in s.match.sources)
    )
    assert fed not in now


def test_a_bye_whose_next_match_has_begun_is_not_given_away(event_with, field, director, finish):
    """The bye holder's round 2 match has a result: the late player cannot take the bye."""
    event = event_with(Event.Format.SINGLE, 6)
    event_draw(event=event, seed=6, user=director)
    knockout = event_knockout(event=event)
    # play every first-round match and every second-round match that exists
    for _ in range(2):
        for match in by_key(event).values():
            if match.status == Match.Status.SCHEDULED:
                finish(match, match.player_a)
    decided = {k: m for k, m in by_key(event).items() if m.decided}
    assert knockout.bracket.size == 8 and any(k.startswith("M2") for k in decided)
    late = field(1, "Late")[0]
    with pytest.raises(ValidationError, match="has begun or is decided"):
        entry_late_add(event=event, player=late, user=director)
    assert not event.entries.filter(player=late).exists()  # nothing written


def test_a_full_knockout_has_no_bye_to_take(event_with, field, director):
    event = event_with(Event.Format.SINGLE, 8)
    event_draw(event=event, seed=1, user=director)
    with pytest.raises(ValidationError, match="no bye place left"):
        entry_late_add(event=event, player=field(1, "Late")[0], user=director)


def test_a_late_arrival_in_a_swiss_is_paired_from_the_next_round(event_with, field, director):
    event = event_with(Event.Format.SWISS, 5, swiss_rounds=3)  # six with the late arrival
    event_draw(event=event, seed=3, user=director)
    late = field(1, "Late")[0]

    entry = entry_late_add(event=event, player=late, user=director)
    assert entry.joined_round == 2
    for match in event_matches(event=event):
        if match.place.round == 1:
            match_finish(match, director)
    event_pair_next_round(event=event, user=director)

    round_two = [m for m in event_matches(event=event) if m.place.round == 2]
    players = {p for m in round_two for p in (m.player_a_id, m.player_b_id)}
    assert late.pk in players  # paired in round 2 (six players: no bye)
    # round 1 counts as a loss by default; as a bye once the tournament says so
    standing = {row.player.pk: row.standing.wins for row in event_standings(event=event)}
    assert standing[late.pk] == 0
    tournament_late_rounds_set(
        tournament=event.tournament, count_as=Tournament.LateRounds.BYE, user=director
    )
    event.tournament.refresh_from_db()
    standing = {row.player.pk: row.standing.wins for row in event_standings(event=event)}
    assert standing[late.pk] == 1


def match_finish(match, director):
    from matches.services import match_record_final_score

    match_record_final_score(match=match, score_a=match.length, score_b=0, user=director)


def test_a_late_arrival_who_withdraws_can_be_reinstated(event_with, field, director):
    """The rounds before they joined are not 'paired without them' (WBF: nothing lost)."""
    event = event_with(Event.Format.SWISS, 6, swiss_rounds=3)
    event_draw(event=event, seed=3, user=director)
    entry = entry_late_add(event=event, player=field(1, "Late")[0], user=director)
    entry_withdraw(entry=entry, user=director)
    entry_reinstate(entry=entry, user=director)
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CHECKED_IN


def test_taking_the_draw_back_opens_check_in_and_keeps_the_old_draw(event_with, director):
    event = event_with(Event.Format.SINGLE, 6)
    event_draw(event=event, seed=6, user=director)
    drawn = {e.player.name: e.seed for e in event.entries.all()}

    event_draw_undo(event=event, user=director)

    event.refresh_from_db()
    assert not event.drawn and not event.places.exists()
    assert all(e.seed is None for e in event.entries.all())
    audit = AuditEntry.objects.get(code="event.draw_undone")
    assert {name: seed for seed, name in audit.before["seeds"]} == drawn


def test_the_draw_is_not_taken_back_once_a_match_has_begun(six, director, finish):
    match = next(iter(by_key(six).values()))
    finish(match, match.player_a)
    with pytest.raises(ValidationError, match="has begun"):
        event_draw_undo(event=six, user=director)


# --- through the pages -----------------------------------------------------------------


def test_the_event_page_offers_a_late_arrival_and_says_no_in_plain_words(
    six, field, director_client
):
    page = director_client.get(six.get_absolute_url())
    assert b"A player arrives late" in page.content
    late = field(1, "Late")[0]
    done = director_client.post(reverse("late_entry", args=[six.pk]), {"player": late.pk})
    assert done.status_code == 302
    followed = director_client.get(done.url)
    assert "Late01 is entered and checked in." in followed.content.decode()
    second = field(1, "Second")[0]  # the last bye of the eight places
    director_client.post(reverse("late_entry", args=[six.pk]), {"player": second.pk})
    other = field(1, "Third")[0]  # the bracket is full now: refused, with the reason
    again = director_client.post(
        reverse("late_entry", args=[six.pk]), {"player": other.pk}, follow=True
    )
    assert again.status_code == 200
    assert "has no bye place left" in again.content.decode()
    assert six.entries.count() == 8 and not six.entries.filter(player=other).exists()


def test_taking_the_draw_back_asks_first(six, director_client):
    url = reverse("draw_undo", args=[six.pk])
    asked = director_client.post(url)
    assert asked.status_code == 200 and b"Take back the draw" in asked.content
    six.refresh_from_db()
    assert six.drawn  # nothing done before the confirmation
    done = director_client.post(
        url, {"confirm": "1", "drawn_at": six.drawn_at.isoformat()}, follow=True
    )
    assert "check-in is open again" in done.content.decode()
    six.refresh_from_db()
    assert not six.drawn


def test_a_member_cannot_add_a_late_player(six, field, member_client):
    late = field(1, "Late")[0]
    refused = member_client.post(reverse("late_entry", args=[six.pk]), {"player": late.pk})
    assert refused.status_code == 403
    assert not six.entries.filter(player=late).exists()


def test_a_late_arrival_and_the_setting_make_the_round_trip_of_a_tournament_file(
    event_with, field, director
):
    import copy

    from tournaments.transfer import tournament_export, tournament_import

    event = event_with(Event.Format.SWISS, 5, swiss_rounds=3)
    event_draw(event=event, seed=3, user=director)
    late = field(1, "Late")[0]
    entry_late_add(event=event, player=late, user=director)
    tournament_late_rounds_set(tournament=event.tournament, count_as="bye", user=director)
    original = tournament_export(tournament=Tournament.objects.get(pk=event.tournament_id))

    copied = tournament_import(document=copy.deepcopy(original), user=director)

    assert copied.late_rounds == "bye"
    twin = copied.events.get()
    assert twin.entries.get(player__name="Late01").joined_round == 2
    wins = {r.player.name: r.standing.wins for r in event_standings(event=twin)}
    assert wins["Late01"] == 1  # round 1 counted as a bye in the copy too
    again = tournament_export(tournament=copied)
    again["audit"].pop()
    assert again == original


# --- a withdrawn player replaced ---------------------------------------------------------


def test_a_newcomer_takes_a_withdrawn_players_place_and_their_walkover_is_undone(
    event_with, field, director, finish
):
    from tournaments.services import entry_substitute

    event = event_with(Event.Format.SINGLE, 8)
    event_draw(event=event, seed=8, user=director)
    first = by_key(event)["M1-1"]
    gone = first.player_b
    entry = event.entries.get(player=gone)
    entry_withdraw(entry=entry, user=director)
    assert Match.objects.get(pk=first.pk).status == Match.Status.WALKOVER
    newcomer = field(1, "Sub")[0]

    taken = entry_substitute(entry=entry, player=newcomer, user=director)

    assert taken.seed is not None and taken.status == Entry.Status.CHECKED_IN
    assert Entry.objects.get(pk=entry.pk).seed is None  # the withdrawn one is out of the draw
    match = Match.objects.get(pk=first.pk)
    assert match.status == Match.Status.SCHEDULED  # to be played, by the newcomer
    assert newcomer.pk in (match.player_a_id, match.player_b_id)
    assert not [k for k in by_key(event) if k.startswith("M2")]  # the walkover's advance undone
    finish(match, match.player_a)
    assert AuditEntry.objects.filter(code="entry.substituted").count() == 1


def test_a_withdrawn_player_who_played_is_not_replaced(event_with, field, director, finish):
    from tournaments.services import entry_substitute

    event = event_with(Event.Format.SINGLE, 8)
    event_draw(event=event, seed=8, user=director)
    first = by_key(event)["M1-1"]
    finish(first, first.player_a)
    entry = event.entries.get(player=first.player_a)
    entry_withdraw(entry=entry, user=director)
    with pytest.raises(ValidationError, match="has already played"):
        entry_substitute(entry=entry, player=field(1, "Sub")[0], user=director)
    assert Entry.objects.get(pk=entry.pk).seed is not None  # nothing changed


def test_the_late_form_offers_the_withdrawn_players_place(event_with, field, director, client):
    event = event_with(Event.Format.SINGLE, 8)
    event_draw(event=event, seed=8, user=director)
    gone = by_key(event)["M1-2"].player_a
    entry = event.entries.get(player=gone)
    entry_withdraw(entry=entry, user=director)
    client.force_login(director)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "In the place of" in page and gone.label in page
    newcomer = field(1, "Sub")[0]
    done = client.post(
        reverse("late_entry", args=[event.pk]),
        {"player": newcomer.pk, "replaces": entry.pk},
        follow=True,
    ).content.decode()
    assert f"Sub01 takes the place of {gone.name}." in done
    assert event.entries.get(player=newcomer).seed is not None


# --- the rounds a late Swiss arrival missed, as losses -------------------------------------


def test_a_late_swiss_arrivals_missed_round_shows_as_a_loss_on_the_page_and_in_the_api(
    event_with, field, director, director_client
):
    """The tournament says missed rounds count as losses (the default): the standings, the
    player's line in the CSV download and the API say one loss for round 1, not none."""
    import csv
    import io

    from tests.helpers import page_words

    event = event_with(Event.Format.SWISS, 5, swiss_rounds=3)
    event_draw(event=event, seed=3, user=director)
    late = field(1, "Late")[0]
    director_client.post(reverse("late_entry", args=[event.pk]), {"player": late.pk})
    for match in event_matches(event=event):
        match_finish(match, director)

    assert "counts as a loss" in page_words(director_client.get(event.get_absolute_url()))
    download = director_client.get(event.get_absolute_url(), {"_export": "csv"})
    table = list(csv.reader(io.StringIO(download.content.decode())))
    heading, lines = table[0], {row[1]: dict(zip(table[0], row, strict=True)) for row in table[1:]}
    assert {"played", "wins", "losses"} <= set(heading)
    assert (lines["Late01"]["played"], lines["Late01"]["wins"], lines["Late01"]["losses"]) == (
        "0",
        "0",
        "1",
    )
    api = director_client.get(f"/api/v1/events/{event.pk}/standings").json()
    (row,) = [r for r in api["table"] if r["player"]["name"] == "Late01"]
    assert (row["wins"], row["losses"]) == (0, 1)

    tournament_late_rounds_set(
        tournament=event.tournament, count_as=Tournament.LateRounds.BYE, user=director
    )
    api = director_client.get(f"/api/v1/events/{event.pk}/standings").json()
    (row,) = [r for r in api["table"] if r["player"]["name"] == "Late01"]
    assert (row["wins"], row["losses"], row["byes"]) == (1, 0, 1)  # as a bye instead
    assert "counts as a loss" not in page_words(director_client.get(event.get_absolute_url()))
