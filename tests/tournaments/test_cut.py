"""The cut of a Swiss to a knockout asks first (issue 25.5): who goes through, their seeds
and the knockout's lengths, editable; a tie at the cut line said, with the rule that breaks
it or the director's choice; a stale preview and an unfinished Swiss refused in words. The
knockout's name is the site's, made in each reader's language (issue 25.12)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from matches.models import Match
from tests.helpers import page_words
from tournaments.models import Entry, Event
from tournaments.queries.events import event_matches
from tournaments.services import entry_withdraw, event_draw


@pytest.fixture
def swiss(event_with, director, finish):
    """A Swiss of six, one round played (player A of each match wins), cut to four: three
    winners go through, and the three losers are level at the line on every tie-break
    (no win, Buchholz 1, median 1) for the last place."""
    event = event_with(Event.Format.SWISS, 6, swiss_rounds=1, cut=4, lengths=(5, 7, 11))
    event_draw(event=event, seed=1, user=director)
    for match in event_matches(event=event):
        finish(match, match.player_a)
    return Event.objects.get(pk=event.pk)


def losers(event):
    """The round's losers by their number in the Swiss's draw (the rule's order)."""
    seeds = {e.player_id: e.seed for e in event.entries.all()}
    lost = [m.player_b for m in Match.objects.filter(place__event=event)]
    return sorted(lost, key=lambda p: seeds[p.pk])


def version(response) -> str:
    return re.search(r'name="version" value="([0-9a-f]+)"', response.content.decode())[1]


def test_the_cut_asks_first_and_says_the_tie_at_the_line(swiss, director_client):
    url = reverse("cut", args=[swiss.pk])
    asked = director_client.get(url)
    words = page_words(asked)
    assert asked.status_code == 200
    assert not swiss.children.exists()  # asking writes nothing
    names = ", ".join(p.name for p in losers(swiss))
    assert (
        "3 players are level at the cut line on wins, Buchholz and median Buchholz: "
        f"{names}. 1 of them goes through." in words
    )
    assert "ordered by their number in the Swiss's draw (published with the draw), the lower" in (
        words
    )
    first = losers(swiss)[0]
    assert re.search(rf"4 {first.name} level at the line", words)  # seed 4 by the rule
    # the lengths proposed: the Swiss's after its round, the final the last
    assert 'name="round_1" value="7"' in asked.content.decode()
    assert 'name="round_2" value="11"' in asked.content.decode()


def test_the_director_chooses_at_the_line_and_edits_the_lengths(swiss, director_client):
    url = reverse("cut", args=[swiss.pk])
    chosen = losers(swiss)[2]  # not the one the rule picks
    answer = director_client.post(
        url,
        {
            "confirm": "1",
            "version": version(director_client.get(url)),
            "round_1": "9",
            "round_2": "13",
            "chosen": [chosen.pk],
        },
    )
    knockout = swiss.children.get()
    assert answer.status_code == 302 and answer["Location"] == knockout.get_absolute_url()
    seeds = {e.seed: e.player for e in knockout.entries.all()}
    assert seeds[4] == chosen and len(seeds) == 4
    page = page_words(director_client.get(knockout.get_absolute_url()))
    assert "Match lengths 9, 13" in page
    changes = reverse("tournament_changes", args=[swiss.tournament_id])
    names = ", ".join(p.name for p in losers(swiss))
    assert (
        f"cut {swiss.name} to the top 4 players: {swiss.name} – last 4. Level at the cut line: "
        f"{names}; the director chose who went through."
    ) in page_words(director_client.get(changes))
    assert {m.length for m in event_matches(event=knockout)} == {9}  # the semi-finals


def test_a_tie_left_to_the_rule_sends_the_lower_draw_number_through(swiss, director_client):
    url = reverse("cut", args=[swiss.pk])
    form = {"confirm": "1", "version": version(director_client.get(url))}
    form |= {"round_1": "7", "round_2": "11", "chosen": [losers(swiss)[0].pk]}
    director_client.post(url, form)
    knockout = swiss.children.get()
    assert knockout.entries.get(seed=4).player == losers(swiss)[0]
    changes = reverse("tournament_changes", args=[swiss.tournament_id])
    assert "the Swiss's draw order decided." in page_words(director_client.get(changes))


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"round_1": "6"}, "A match is played to an odd number of points, not 6 (WBF 3)."),
        ({"chosen": []}, "Choose 1 of the 3 players level at the cut line."),
    ],
)
def test_a_refused_cut_form_says_why_and_makes_nothing(swiss, director_client, change, said):
    url = reverse("cut", args=[swiss.pk])
    form = {"confirm": "1", "version": version(director_client.get(url))}
    form |= {"round_1": "7", "round_2": "11", "chosen": [losers(swiss)[0].pk]} | change
    answer = director_client.post(url, form)
    assert answer.status_code == 400
    assert said in page_words(answer)
    assert not swiss.children.exists()


def test_a_stale_preview_is_refused_in_words(swiss, director_client, director):
    url = reverse("cut", args=[swiss.pk])
    seen = version(director_client.get(url))
    through = Entry.objects.get(event=swiss, seed=1)
    entry_withdraw(entry=through, user=director)  # the standings change under the preview
    form = {"confirm": "1", "version": seen, "round_1": "7", "round_2": "11"}
    answer = director_client.post(url, form | {"chosen": [losers(swiss)[0].pk]})
    assert answer.status_code == 400
    assert (
        f"The standings of {swiss.name} have changed since this cut was shown (a result "
        "corrected, a withdrawal): look at the cut again before you make it."
    ) in page_words(answer)
    assert not swiss.children.exists()
    assert version(answer) != seen  # the cut as it stands now, to look at again
    words = page_words(answer)
    gone = through.player.name
    assert f"{gone} has withdrawn: the next player in the standings goes through instead." in (
        words
    )
    assert "3 players are level at the cut line" in words and "2 of them go through." in words


def test_the_cut_of_an_unfinished_swiss_is_refused_in_words(event_with, director, client):
    event = event_with(Event.Format.SWISS, 6, swiss_rounds=2, cut=4)
    event_draw(event=event, user=director)
    client.force_login(director)
    url = reverse("cut", args=[event.pk])
    for answer in (client.get(url), client.post(url, {"confirm": "1", "version": "x"})):
        assert answer.status_code == 400
        assert "The cut comes after all 2 Swiss rounds are finished." in page_words(answer)
    assert not event.children.exists()


@pytest.mark.parametrize(("director_speaks", "reader_speaks"), [("en", "it"), ("it", "en")])
def test_the_knockout_is_named_in_the_readers_language(
    swiss, director_client, director_speaks, reader_speaks
):
    url = reverse("cut", args=[swiss.pk])
    asked = director_client.get(url, HTTP_ACCEPT_LANGUAGE=director_speaks)
    form = {"confirm": "1", "version": version(asked), "round_1": "7", "round_2": "11"}
    form["chosen"] = [losers(swiss)[0].pk]
    director_client.post(url, form, HTTP_ACCEPT_LANGUAGE=director_speaks)
    knockout = swiss.children.get()
    names = {"en": "swiss 6 – last 4", "it": "swiss 6 – fase finale a 4"}
    for page in (knockout.get_absolute_url(), swiss.get_absolute_url()):
        words = page_words(director_client.get(page, HTTP_ACCEPT_LANGUAGE=reader_speaks))
        assert names[reader_speaks] in words
        assert names[director_speaks] not in words
    changes = reverse("tournament_changes", args=[swiss.tournament_id])
    words = page_words(director_client.get(changes, HTTP_ACCEPT_LANGUAGE=reader_speaks))
    cut = {"en": "to the top 4 players: ", "it": "ai primi 4 giocatori: "}[reader_speaks]
    assert cut + names[reader_speaks] in words  # the cut's own entry, in the reader's words


def test_the_knockouts_lengths_change_after_the_cut_for_rounds_not_begun(
    swiss, director_client, finish
):
    """The semi-finals not begun take the new length at once, the final when it is made; once
    a semi-final is played, its round keeps its length, said in words."""
    url = reverse("cut", args=[swiss.pk])
    form = {"confirm": "1", "version": version(director_client.get(url))}
    form |= {"round_1": "7", "round_2": "11", "chosen": [losers(swiss)[0].pk]}
    director_client.post(url, form)
    knockout = swiss.children.get()
    edit = reverse("event_edit", args=[knockout.pk])
    assert 'name="lengths" value="7, 11"' in director_client.get(edit).content.decode()
    answer = director_client.post(edit, {"name": "", "lengths": "9, 13"})
    assert answer.status_code == 302
    assert {m.length for m in event_matches(event=knockout)} == {9}
    semi = event_matches(event=knockout).first()
    finish(semi, semi.player_a)
    answer = director_client.post(edit, {"name": "", "lengths": "5, 13"})
    assert answer.status_code == 400
    assert (
        f"Round 1 of {knockout.name} has begun: its matches stay 9 points long. Change the "
        "lengths of the rounds after it."
    ) in page_words(answer)
    assert director_client.post(edit, {"name": "", "lengths": "9, 15"}).status_code == 302
    for semi in event_matches(event=knockout):
        if not semi.decided:
            finish(semi, semi.player_a)
    final = [m for m in event_matches(event=knockout) if m.place.round == 2]
    assert [m.length for m in final] == [15]
    assert "Match lengths 9, 15" in page_words(director_client.get(knockout.get_absolute_url()))


def test_the_cut_page_speaks_italian(swiss, director_client):
    words = page_words(
        director_client.get(reverse("cut", args=[swiss.pk]), HTTP_ACCEPT_LANGUAGE="it")
    )
    names = ", ".join(p.name for p in losers(swiss))
    assert f"Tagliare {swiss.name} ai primi 4?" in words
    assert (
        "3 giocatori sono pari sulla linea del taglio per vittorie, Buchholz e Buchholz "
        f"mediano: {names}. Ne passa 1." in words
    )
    assert "prima il numero più basso" in words
    assert "Fai il taglio: 4 giocatori" in words


@pytest.mark.django_db(transaction=True)
def test_the_migration_forgets_the_names_the_site_made():
    """Rows named by the site in an Italian director's words are named in each reader's
    language after the migration; a name a director gave stays."""
    import datetime

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import translation

    executor = MigrationExecutor(connection)
    before = [("tournaments", "0014_entries_sorted_as_read")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Torneo", date=datetime.date(2026, 11, 26)
    )
    Old = old.get_model("tournaments", "Event")
    swiss = Old.objects.create(
        tournament=tournament, name="sistema svizzero", format="swiss", swiss_rounds=3, cut=4
    )
    Old.objects.create(
        tournament=tournament,
        name="sistema svizzero – fase finale a 4",
        format="single",
        parent=swiss,
        seeding="standings",
    )
    Old.objects.create(tournament=tournament, name="Main", format="single")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    events = Event.objects.filter(tournament_id=tournament.pk).order_by("id")
    assert [e.given_name for e in events] == ["", "", "Main"]
    assert [e.name for e in events] == ["Swiss", "Swiss – last 4", "Main"]
    with translation.override("it"):
        assert [e.name for e in events] == [
            "sistema svizzero",
            "sistema svizzero – fase finale a 4",
            "Main",
        ]
