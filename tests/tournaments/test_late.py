"""Late arrivals: into a knockout's bye, into a Swiss from the next round, and check-in
opened again by taking the draw back."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club.models import AuditEntry
from matches.models import Match
from tournaments.models import Entry, Event, Tournament
from tournaments.queries.events import event_matches
from tournaments.queries.knockouts import event_knockout
from tournaments.queries.standings import event_standings
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

    from tests.tournaments.helpers import another_tournament
    from tournaments.transfer import tournament_export, tournament_import

    event = event_with(Event.Format.SWISS, 5, swiss_rounds=3)
    event_draw(event=event, seed=3, user=director)
    late = field(1, "Late")[0]
    entry_late_add(event=event, player=late, user=director)
    tournament_late_rounds_set(tournament=event.tournament, count_as="bye", user=director)
    original = another_tournament(
        tournament_export(tournament=Tournament.objects.get(pk=event.tournament_id))
    )

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
    table = list(csv.reader(io.StringIO(download.getvalue().decode())))
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


# --- a player entered who did not check in arrives after the draw ---------------------------


@pytest.fixture
def drawn_without(event_with, field, director):
    """drawn_without(format, count, **options): an event drawn with ``count`` players checked
    in, and one more entered who did not check in (Absent01)."""
    from tournaments.services import entry_register

    def make(format, count, **options):
        event = event_with(format, count, **options)
        absent = field(1, "Absent")[0]
        entry = entry_register(event=event, player=absent, user=director)
        event_draw(event=event, seed=6, user=director)
        return event, entry

    return make


def late_post(client, event, player, **extra):
    posted = {"player": player.pk, **{k: v.pk for k, v in extra.items()}}
    return client.post(reverse("late_entry", args=[event.pk]), posted, follow=True)


def test_the_late_picker_lists_the_entered_players_who_did_not_check_in(
    drawn_without, director_client
):
    import re

    event, entry = drawn_without(Event.Format.SINGLE, 6)
    page = director_client.get(event.get_absolute_url()).content.decode()
    late = re.search(r'<form[^>]*id="late".*?</form>', page, re.S).group(0)
    group = re.search(r'<optgroup label="Entered, not in the draw">(.*?)</optgroup>', late, re.S)
    assert group and f'value="{entry.player_id}"' in group.group(1)
    assert "Absent01" in group.group(1)
    drawn = event.entries.exclude(seed=None).first()
    assert f'value="{drawn.player_id}"' not in late  # a player in the draw is not offered
    italian = director_client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="it")
    assert '<optgroup label="Iscritti, non nel tabellone">' in italian.content.decode()


def test_an_entered_player_arriving_late_takes_a_knockout_bye_and_the_draw_stays(
    drawn_without, director_client
):
    """The bye becomes their match; the seeds drawn and the published seed are kept."""
    event, entry = drawn_without(Event.Format.SINGLE, 6)
    seeds = dict(event.entries.exclude(seed=None).values_list("player_id", "seed"))
    published = Event.objects.get(pk=event.pk).draw_seed

    done = late_post(director_client, event, entry.player).content.decode()

    assert "Absent01 is entered and checked in." in done
    arrived = Entry.objects.get(pk=entry.pk)  # their own entry, not a second one
    assert (arrived.status, arrived.seed) == (Entry.Status.CHECKED_IN, 7)
    assert event.entries.count() == 7
    assert dict(event.entries.exclude(pk=entry.pk).values_list("player_id", "seed")) == seeds
    assert Event.objects.get(pk=event.pk).draw_seed == published
    (match,) = [
        m for m in event_matches(event=event) if entry.player_id in (m.player_a_id, m.player_b_id)
    ]
    assert match.status == Match.Status.SCHEDULED and match.place.round == 1
    audit = AuditEntry.objects.get(code="entry.late")
    assert audit.before == {"status": Entry.Status.REGISTERED}
    changes = director_client.get(reverse("tournament_changes", args=[event.tournament_id]))
    assert "checked in Absent01, entered and arriving late" in changes.content.decode()


def test_an_entered_player_arriving_late_is_paired_in_the_swiss_from_the_next_round(
    drawn_without, director, director_client
):
    event, entry = drawn_without(Event.Format.SWISS, 5, swiss_rounds=3)
    page = director_client.get(event.get_absolute_url()).content.decode()
    assert "Entered, not in the draw" in page

    late_post(director_client, event, entry.player)

    arrived = Entry.objects.get(pk=entry.pk)
    assert (arrived.status, arrived.joined_round) == (Entry.Status.CHECKED_IN, 2)
    for match in event_matches(event=event):
        match_finish(match, director)
    director_client.post(reverse("pair_next_round", args=[event.pk]))
    round_two = [m for m in event_matches(event=event) if m.place.round == 2]
    assert entry.player_id in {p for m in round_two for p in (m.player_a_id, m.player_b_id)}


def test_an_entered_player_arriving_late_replaces_a_no_show(
    event_with, field, director, director_client
):
    """A knockout of 8 has no bye: the no-show is withdrawn (a walkover), and the player who
    arrives takes their place; the walkover is taken back, the match is theirs to play."""
    from tournaments.services import entry_register

    event = event_with(Event.Format.SINGLE, 8)
    absent = entry_register(event=event, player=field(1, "Absent")[0], user=director)
    event_draw(event=event, seed=8, user=director)
    first = by_key(event)["M1-1"]
    gone = event.entries.get(player=first.player_b)
    entry_withdraw(entry=gone, user=director)

    done = late_post(director_client, event, absent.player, replaces=gone).content.decode()

    assert f"Absent01 takes the place of {gone.player.name}." in done
    arrived = Entry.objects.get(pk=absent.pk)
    assert (arrived.status, arrived.seed) == (Entry.Status.CHECKED_IN, gone.seed)
    assert event.entries.filter(player=absent.player).count() == 1
    match = Match.objects.get(pk=first.pk)
    assert match.status == Match.Status.SCHEDULED
    assert absent.player_id in (match.player_a_id, match.player_b_id)


def test_a_player_already_playing_is_refused_in_plain_words(
    drawn_without, field, director, director_client
):
    from tests.helpers import page_words

    event, _entry = drawn_without(Event.Format.SINGLE, 6)
    playing = event.entries.get(seed=2)
    before = list(event.entries.values_list("pk", "status", "seed"))

    refused = late_post(director_client, event, playing.player)

    words = page_words(refused)
    assert f"{playing.player.name} is already playing in {event.name} (seed 2)" in words
    assert "not one of the available choices" not in words
    assert list(event.entries.values_list("pk", "status", "seed")) == before
    assert not AuditEntry.objects.filter(code="entry.late").exists()
    italian = director_client.post(
        reverse("late_entry", args=[event.pk]),
        {"player": playing.player.pk},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert f"{playing.player.name} gioca già in {event.name} (testa di serie 2)" in page_words(
        italian
    )
    # nor can they take a no-show's place
    gone = event.entries.get(seed=3)
    entry_withdraw(entry=gone, user=director)
    refused = late_post(director_client, event, playing.player, replaces=gone)
    assert "is already playing in" in page_words(refused)
    assert Entry.objects.get(pk=gone.pk).seed == 3
    # a player who withdrew is brought back by Reinstate, and told so
    other = field(1, "Gone")[0]
    Entry.objects.create(event=event, player=other, status=Entry.Status.WITHDRAWN)  # before
    refused = late_post(director_client, event, other)
    assert "Gone01 has withdrawn from" in page_words(refused)
    assert "use Reinstate" in page_words(refused)
