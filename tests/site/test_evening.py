"""A director's whole evening in a real browser, in English and in Italian (issue 14).

Players imported from a CSV file, two events in one room of three tables, a redraw, a
late arrival into a bye, a wrong walkover put right, a game recorded, the dashboard with
the match in play, and the printed round with its table numbers; then (issue 24) a room
shared by two events on a phone: an entered player arriving late, a player in both events
never at two tables, a walkover taken back. Controls are found by
their forms (the same in both languages); what the director reads is checked in the
language of the browser, through the site's own catalogue.
"""

from __future__ import annotations

import io
import os
import re

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext
from playwright.sync_api import expect

from tests.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

NAMES = [
    "Anna Rossi", "Bruno Bianchi", "Carla Verdi", "Dario Neri", "Elena Conti", "Fabio Gallo",
    "Gina Russo", "Ugo Ferri", "Ivo Costa", "Lia Fontana", "Mara Greco", "Nino Marino",
    "Niccolò Ricci",
]  # fmt: skip
CSV = "nome;circolo;email\n" + "".join(
    f"{name};Circolo Milano;socio{n}@example.org\n" for n, name in enumerate(NAMES, 1)
)


def said(lang, text, **params):
    """The text as the site says it in ``lang``; in Italian it must have been translated."""
    with translation.override(lang):
        found = gettext(text)
    assert lang == "en" or found != text, f"not in the Italian catalogue: {text!r}"
    return found % params if params else found


def said_n(lang, one, many, count, **params):
    with translation.override(lang):
        found = ngettext(one, many, count)
    assert lang == "en" or found not in (one, many), f"not in the Italian catalogue: {one!r}"
    return found % {"count": count, **params}


def confirm(page):
    """Past the confirmation page every destructive action asks first."""
    page.locator("form#confirm button[type=submit]").click()


def pdf_text(pdf: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_director_s_whole_evening(browser, site, django_user_model, directors_group, lang):
    from club.models import AuditEntry, Player
    from matches.models import Match
    from tournaments.models import Event, Table, Tournament

    user = django_user_model.objects.create_user("td", password="td-password-1")
    user.groups.add(directors_group)
    page = browser.new_page(
        locale="en-GB" if lang == "en" else "it-IT", viewport={"width": 1280, "height": 900}
    )
    page.goto(f"{site.url}/accounts/login/?next=/players/import/")
    page.locator("#id_username").fill("td")
    page.locator("#id_password").fill("td-password-1")
    page.locator("form button[type=submit]").last.click()

    # 1. the club's players from a spreadsheet's CSV, previewed, then registered
    page.locator("input[type=file]").set_input_files(
        files=[{"name": "club.csv", "mimeType": "text/csv", "buffer": CSV.encode("utf-8")}]
    )
    page.locator("main form.stacked button").click()
    expect(page.locator("#creating")).to_contain_text(
        said_n(
            lang,
            "%(counter)s player will be registered; the rows left out are marked.",
            "%(counter)s players will be registered; the rows left out are marked.",
            13,
            counter=13,
        )
    )
    assert Player.objects.count() == 0  # nothing before the director confirms
    page.locator("button[name=confirm]").click()
    assert Player.objects.count() == 13
    player = {p.name: p for p in Player.objects.all()}

    # 2. the tournament, a room of three tables, and two events
    page.goto(f"{site.url}/tournaments/new/")
    page.locator("#id_name").fill("Torneo della Sera")
    page.locator("#id_date").fill("2026-11-25")
    page.locator("#id_venue").fill("Circolo Milano")
    page.locator("main form button[type=submit]").click()
    tournament = Tournament.objects.get(name="Torneo della Sera")
    page.locator("#tables input[name=tables]").fill("3")
    page.locator("#tables button[type=submit]").click()

    def event_made(name, format, players, **fields):
        page.goto(f"{site.url}/tournaments/{tournament.pk}/events/new/")
        page.locator("#id_name").fill(name)
        page.locator("#id_format").select_option(format)
        page.locator("#id_lengths").fill("3, 5")
        for field, value in fields.items():
            page.locator(f"#id_{field}").fill(value)
        page.locator("main form button[type=submit]").click()
        search = page.locator(".director-tools input[type=search]")
        for name_ in players:  # found by typing, accents aside ("nicco" finds Niccolò)
            search.fill(name_.split()[0][:4].lower())
            page.locator(f"#id_players input[value='{player[name_].pk}']").check()
        search.fill("")
        page.locator("form[action$='/entries/'] button[type=submit]").click()
        page.locator("#check-in-all button").click()
        expect(page.locator("#checked-in")).to_contain_text(
            said_n(
                lang,
                "%(count)s of %(total)s checked in",
                "%(count)s of %(total)s checked in",
                len(players),
                total=len(players),
            )
        )
        page.locator("form[action$='/draw/'] button[type=submit]").click()
        return Event.objects.get(tournament=tournament, given_name=name)

    main = event_made("Main", "single", NAMES[:6])
    swiss = event_made("Swiss", "swiss", NAMES[6:12], swiss_rounds="3")

    # 3. the draw of the knockout made again (asked first; the old seed stays in the audit)
    page.goto(f"{site.url}/events/{main.pk}/")
    page.locator("form#redraw button[type=submit]").click()
    confirm(page)
    expect(page.locator(".message").first).to_have_text(said(lang, "The draw is made again."))
    assert AuditEntry.objects.filter(code="event.redrawn").count() == 1

    # 4. a player arrives late and takes a bye place of round 1 (six in eight: two byes)
    late = player["Niccolò Ricci"]
    page.locator("#late select[name=player]").select_option(str(late.pk))
    page.locator("#late button[type=submit]").click()
    expect(page.locator(".message").first).to_have_text(
        said(lang, "%(player)s is entered and checked in.", player=late.name)
    )
    mine = Match.objects.filter(place__event=main).filter(player_b=late) | Match.objects.filter(
        place__event=main, player_a=late
    )
    assert mine.count() == 1  # the bye became a match

    # the room: three tables across both events, never two matches at one
    def seated():
        return {
            t.number: t.match_id
            for t in Table.objects.filter(tournament=tournament, match__isnull=False)
        }

    room = seated()
    assert sorted(room) == [1, 2, 3] and len(set(room.values())) == 3
    playing = Match.objects.filter(place__event__tournament=tournament, status="scheduled")
    assert {Match.objects.get(pk=m).place.event_id for m in room.values()} == {main.pk, swiss.pk}
    assert playing.count() == 6 and playing.filter(table__isnull=True).count() == 3  # they wait

    # 5. a wrong walkover, put right: the Swiss match goes back to be played
    wrong = Match.objects.filter(place__event=swiss).order_by("pk").first()
    page.goto(f"{site.url}/matches/{wrong.pk}/")
    page.locator("form#walkover select[name=winner]").select_option("0")
    page.locator("form#walkover button[type=submit]").click()
    confirm(page)
    wrong.refresh_from_db()
    assert wrong.status == Match.Status.WALKOVER
    page.locator("form#take-back button[type=submit]").click()
    confirm(page)
    wrong.refresh_from_db()
    assert wrong.status == Match.Status.SCHEDULED

    # 6. a game recorded at table 1: the match is in play; one ended frees its table
    at_one = Match.objects.get(pk=seated()[1])
    page.goto(f"{site.url}/matches/{at_one.pk}/")
    page.locator("input[name=winner][value='0']").check()
    page.locator("form[action$='/games/'] button[type=submit]").click()
    at_one.refresh_from_db()
    assert at_one.status == Match.Status.IN_PLAY
    ended = Match.objects.get(pk=seated()[2])
    page.goto(f"{site.url}/matches/{ended.pk}/")
    page.locator("form[action$='/final-score/'] input[name=score_a]").fill("3")
    page.locator("form[action$='/final-score/'] input[name=score_b]").fill("0")
    page.locator("form[action$='/final-score/'] button[type=submit]").click()
    room = seated()
    assert room[2] != ended.pk and Match.objects.get(pk=room[2]).place.event_id == swiss.pk
    assert len(set(room.values())) == 3  # table 2 reused by the Swiss, still one a table

    # 7. the dashboard: the match in play with its table and players
    page.goto(f"{site.url}/tournaments/{tournament.pk}/dashboard/")
    in_play = page.locator("main").inner_text()
    assert at_one.player_a.name in in_play and at_one.player_b.name in in_play
    assert said(lang, "Table %(number)s", number=1) in in_play

    # 8. the printed round of the knockout carries the table numbers
    page.goto(f"{site.url}/events/{main.pk}/rounds/1/")
    page.emulate_media(media="print")
    text = pdf_text(page.pdf())
    assert said(lang, "table") in text.lower()
    lines = [line for line in text.splitlines() if at_one.player_a.name in line]
    assert lines and re.match(r"\s*1\b", lines[0]), lines


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_room_shared_by_two_events_on_a_phone(browser, site, director, event_with, lang):
    """Issue 24: a player entered who arrives after the draw, two events sharing the tables
    with a player in both (never at two tables), a walkover taken back, and every table
    email still true when read; the director on a 390-pixel phone."""
    from django.core import mail

    from club.services import player_create
    from matches.models import Match
    from tournaments.models import Event, Table
    from tournaments.services import entry_register, event_draw
    from tournaments.venue import tournament_tables_set

    names = ["Éric Lefèvre", "Tommaso Rè", "Zoë Marchetti", "Niccolò D'Agostino"]
    people = [
        player_create(name=name, email=f"p{n}@example.org", user=director)
        for n, name in enumerate(names)
    ]
    main = event_with(Event.Format.SINGLE, people[:3])
    late = people[3]
    entry_register(event=main, player=late, user=director)  # entered; not here at the draw
    tournament = main.tournament
    tournament_tables_set(tournament=tournament, count=2, user=director)
    event_draw(event=main, seed=1, user=director)
    (first,) = Match.objects.filter(place__event=main)  # three in four: one match, one bye
    both = [first.player_a, first.player_b]
    side = event_with(Event.Format.SWISS, both, swiss_rounds=1)
    event_draw(event=side, seed=1, user=director)
    (second,) = Match.objects.filter(place__event=side)

    def seated():
        return {
            t.number: t.match
            for t in Table.objects.filter(tournament=tournament).exclude(match=None)
        }

    def one_table_each():
        room = seated()
        players = [p for m in room.values() for p in (m.player_a_id, m.player_b_id)]
        assert len(players) == len(set(players)), room  # nobody at two tables
        return room

    assert one_table_each() == {1: first}  # the side match waits: its players are at table 1

    page = browser.new_page(
        locale="en-GB" if lang == "en" else "it-IT", viewport={"width": 390, "height": 844}
    )
    page.goto(f"{site.url}/accounts/login/")
    page.locator("#id_username").fill("director")
    page.locator("#id_password").fill("pw-director-1")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)

    def submit(button):
        """Click, and wait for the page the form leads to (a busy machine is slow to answer)."""
        with page.expect_navigation():
            button.click()

    def fits():
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390, page.url

    # the dashboard says why the side match waits
    page.goto(f"{site.url}/tournaments/{tournament.pk}/dashboard/")
    fits()
    waits = " ".join(page.locator("main").inner_text().split())
    for player in both:
        assert (
            said(
                lang,
                "Waits for %(name)s, who is at table %(table)s in another match.",
                name=player.name,
                table=1,
            )
            in waits
        )

    # the player entered who did not check in arrives: into the bye, at the free table
    page.goto(f"{site.url}/events/{main.pk}/")
    fits()
    page.locator("#late select[name=player]").select_option(str(late.pk))
    submit(page.locator("#late button[type=submit]"))
    expect(page.locator(".message").first).to_have_text(
        said(lang, "%(player)s is entered and checked in.", player=late.name)
    )
    fits()
    room = one_table_each()
    arrived = room[2]
    assert late in (arrived.player_a, arrived.player_b) and arrived.place.event_id == main.pk

    # the first match ends: its table goes to the side match, whose players are free now
    page.goto(f"{site.url}/matches/{first.pk}/")
    fits()
    form = page.locator("form[action$='/final-score/']")
    form.locator("input[name=score_a]").fill("5")
    form.locator("input[name=score_b]").fill("0")
    submit(form.locator("button[type=submit]"))
    assert one_table_each() == {1: second, 2: arrived}

    # a walkover given by mistake makes the final at once; taken back, the final is gone
    page.goto(f"{site.url}/matches/{arrived.pk}/")
    page.locator("form#walkover select[name=winner]").select_option("0")
    submit(page.locator("form#walkover button[type=submit]"))
    fits()
    submit(page.locator("form#confirm button[type=submit]"))
    final = Match.objects.get(place__event=main, place__round=2)
    submit(page.locator("form#take-back button[type=submit]"))
    submit(page.locator("form#confirm button[type=submit]"))
    assert not Match.objects.filter(pk=final.pk).exists()
    assert one_table_each()[2] == arrived

    # the players were called to their tables, in their language's words
    called = [m for m in mail.outbox if m.to == [late.email]]
    assert called and "2" in called[0].subject
    # every table email is still true, or was put right by a later one to the same player
    for player in people:
        told = [m for m in mail.outbox if m.to == [player.email]]
        for number, email in enumerate(told):
            for pk in re.findall(r"/matches/(\d+)/", email.body):
                if not Match.objects.filter(pk=pk).exists():
                    later = " ".join(m.subject for m in told[number + 1 :])
                    assert "no longer" in later or "non è più" in later, email.body
        table_emails = [m for m in told if re.search(r"\b[0-9]+\b", m.subject)]
        if player in (first.player_a, first.player_b):  # last called to the side match
            assert second.get_absolute_url() in table_emails[-1].body
