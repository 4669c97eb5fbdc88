"""The tables' pages (issue 27): starting a chouette or a money session, joining by code or
QR code, the table's page with its order, cubes and taps, the totals, the log, the
settlement, a director's correction; and every form's refusal rendered in words.

The rules are the engine's (tests/rules): here, that the pages offer what it allows, send
what a tap means, and show what it says, in English and in Italian.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.money.pages import opening, pid, result, tap, version

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def five(people, start_table):
    """A five-player single-cube chouette, ordered by the opening roll: Anna box (6),
    Bruno captain (5), then Carla, Dario, Elena (Galore 3.1)."""
    table = start_table(people.values())
    return table


def ordered(client, table, people):
    dice = dict(zip(people.values(), (6, 5, 4, 3, 2), strict=True))
    response = opening(client, table, dice)
    assert response.status_code == 302, text(response)[:2000]


# --- the list, starting, joining -----------------------------------------------------------


def test_the_tables_ask_to_sign_in_first(client):
    response = client.get(reverse("money:tables"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_list_shows_open_tables_and_the_nav_link_in_italian(client, people, five):
    client.force_login(people["Carla"].user)
    page = text(client.get(reverse("money:tables"), HTTP_ACCEPT_LANGUAGE="it"))
    assert five.name in page and 'id="nav-tables"' in page and "Tavoli" in page
    assert "Nuova chouette" in page


def test_a_chouette_starts_with_the_seed_s_settings(client, people):
    """The form offers Galore 3's settings as the seed has them: one cube, free
    consultation, the box kept unless it loses to the captain, a partner from 8 players."""
    from money.models import Table, TableKind
    from rules.chouette import ChouetteSettings

    client.force_login(people["Anna"].user)
    form = client.get(reverse("money:chouette_new"))
    assert form.status_code == 200
    page = text(form)
    assert re.search(r'value="single"[^>]*checked', page)
    assert re.search(r'value="free"[^>]*checked', page)
    assert re.search(r'name="partner_from" value="8"', page)
    data = {
        "name": "Venerdì",
        "cubes": "single",
        "consultation": "after-cube",
        "box_keeping": "captain",
        "last_must_drop": "on",
        "partner_from": "8",
        "automatic_doubles": "0",
        "max_cube": "",
        "stake": "0,50",
        "players": [people["Anna"].pk, people["Bruno"].pk],
    }
    response = client.post(reverse("money:chouette_new"), data, HTTP_ACCEPT_LANGUAGE="it")
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "money:table", args=[table.pk]
    )
    assert table.kind == TableKind.CHOUETTE
    settings = ChouetteSettings.from_dict(table.settings)
    assert settings.consultation.value == "after-cube" and settings.partner_from == 8
    assert sorted(table.seats.values_list("stake_cents", flat=True)) == [50, 50]
    # consultation is shown to everyone at the table (Galore 3.2)
    client.force_login(people["Bruno"].user)
    assert "only after the cube has been turned" in text(
        client.get(reverse("money:table", args=[table.pk]))
    )


@pytest.mark.parametrize(
    "change, said",
    [
        ({"name": ""}, "This field is required."),
        ({"raccoons": "on"}, "A raccoon answers a beaver"),
        ({"stake": "abc"}, "Enter a number."),
        ({"partner_from": "1"}, "greater than or equal to 3"),
        ({"max_cube": "3"}, "Select a valid choice"),
    ],
)
def test_a_refused_chouette_says_why(client, people, change, said):
    client.force_login(people["Anna"].user)
    data = {"name": "Venerdì", "cubes": "single", "consultation": "free", "box_keeping": "captain"}
    data.update(automatic_doubles="0", **change)
    response = client.post(reverse("money:chouette_new"), data)
    assert response.status_code == 400 and said in text(response)


def test_a_money_session_between_two_players_needs_no_director(client, people):
    """Either player starts it (issue 27): options Jacoby, beavers, a highest cube."""
    from money.models import Table, TableKind
    from rules.chouette import ChouetteSettings

    client.force_login(people["Bruno"].user)
    page = text(client.get(reverse("money:money_new")))
    assert f'value="{people["Bruno"].pk}" selected' in page
    data = {
        "player_a": people["Bruno"].pk,
        "player_b": people["Carla"].pk,
        "jacoby": "on",
        "beavers": "on",
        "automatic_doubles": "1",
        "max_cube": "16",
        "stake": "1",
    }
    assert client.post(reverse("money:money_new"), data).status_code == 302
    table = Table.objects.get()
    money = ChouetteSettings.from_dict(table.settings).money
    assert table.kind == TableKind.MONEY and money.jacoby and money.max_cube == 16
    assert table.seats.count() == 2


def test_a_money_session_with_one_player_twice_is_refused_in_words(client, people):
    client.force_login(people["Bruno"].user)
    data = {
        "player_a": people["Bruno"].pk,
        "player_b": people["Bruno"].pk,
        "automatic_doubles": "0",
    }
    response = client.post(reverse("money:money_new"), data)
    assert response.status_code == 400 and "Choose another player" in text(response)


def test_a_visitor_without_a_player_cannot_start_a_table(client, member):
    client.force_login(member)
    assert client.get(reverse("money:chouette_new")).status_code == 403


def test_join_by_the_code_the_table_shows(client, people, start_table):
    table = start_table([people["Anna"], people["Bruno"]])
    client.force_login(people["Carla"].user)
    page = text(client.get(reverse("money:join") + f"?code={table.code.lower()}"))
    assert f'value="{table.code}"' in page  # the QR code's link fills the code in
    response = client.post(reverse("money:join"), {"code": f" {table.code.lower()} ", "stake": "2"})
    assert response.status_code == 302
    seat = table.seats.get(player=people["Carla"])
    assert seat.stake_cents == 200
    # a second scan of the QR code leads to the table
    again = client.get(reverse("money:join") + f"?code={table.code}")
    assert again.status_code == 302 and again["Location"] == reverse("money:table", args=[table.pk])


@pytest.mark.parametrize(
    "code, said",
    [
        ("", "This field is required."),
        ("ZZZZ", "No open table has this code"),
        ("\x00", "Null characters are not allowed."),
        ("x" * 100, "Ensure this value has at most 20 characters"),
    ],
)
def test_a_wrong_code_is_said_in_words(client, people, five, code, said):
    client.force_login(people["Anna"].user)
    response = client.post(reverse("money:join"), {"code": code})
    assert response.status_code == 400 and said in text(response)


def test_an_account_without_a_player_is_told_to_ask_a_director(client, member, five):
    client.force_login(member)
    response = client.post(reverse("money:join"), {"code": five.code})
    assert response.status_code == 400 and "not linked to a player" in text(response)


def test_joining_twice_is_refused_in_words(client, people, five):
    client.force_login(people["Anna"].user)
    response = client.post(reverse("money:join"), {"code": five.code})
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()


# --- the table's page ---------------------------------------------------------------------


def test_the_table_shows_its_code_and_a_qr_code_of_the_join_link(client, people, five):
    client.force_login(people["Elena"].user)
    page = text(client.get(reverse("money:table", args=[five.pk])))
    assert five.code in page and "<svg" in page
    assert f"/tables/join/?code={five.code}" in page


def test_the_opening_roll_sets_the_order_in_large_type(client, people, five):
    """Galore 3.1: the highest die is the box, the next the captain, then the team."""
    client.force_login(people["Anna"].user)
    page = text(client.get(reverse("money:table", args=[five.pk])))
    assert 'id="opening"' in page
    ordered(client, five, people)
    page = client.get(reverse("money:table", args=[five.pk])).content.decode()
    roles = re.findall(
        r'<li class="role-(\w+)[^"]*">\s*<span class="role">[^<]*</span> <span class="who">(\w+)',
        page,
    )
    assert roles == [
        ("box", "Anna"),
        ("captain", "Bruno"),
        ("team", "Carla"),
        ("team", "Dario"),
        ("team", "Elena"),
    ]
    italian = text(client.get(reverse("money:table", args=[five.pk]), HTTP_ACCEPT_LANGUAGE="it"))
    assert "Capitano" in italian and "Squadra" in italian and "Box" in italian


def test_equal_opening_dice_are_refused_in_words(client, people, five):
    client.force_login(people["Anna"].user)
    dice = dict(zip(people.values(), (6, 6, 4, 3, 2), strict=True))
    response = opening(client, five, dice)
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    assert five.events.count() == 0


def test_a_single_cube_game_box_doubles_one_drops_the_others_take(client, people, five):
    """Galore 3.3: the box doubles the whole team; each member answers on their own; a drop
    pays and leaves the game. The team wins: the captain becomes the box (3.1)."""
    from rules.chouette import events as ev

    anna, bruno, carla, dario, elena = people.values()
    client.force_login(anna.user)
    ordered(client, five, people)
    assert tap(client, five, ev.StartGame()).status_code == 302
    page = text(client.get(reverse("money:table", args=[five.pk])))
    assert "Anna (box) doubles" in page
    members = (pid(bruno), pid(carla), pid(dario), pid(elena))
    assert tap(client, five, ev.BoxDoubles(members=members)).status_code == 302
    # each member sees their own cube and answers it from their phone
    for player, answer in ((bruno, "take"), (carla, "take"), (dario, "take"), (elena, "drop")):
        client.force_login(player.user)
        page = text(client.get(reverse("money:table", args=[five.pk])))
        assert 'id="my-cube"' in page and "Answer" not in page[:0]
        response = tap(client, five, ev.Answer(member=pid(player), answer=answer))
        assert response.status_code == 302, text(response)[:3000]
    client.force_login(anna.user)
    response = result(client, five, "team")
    assert response.status_code == 302, text(response)[:3000]
    page = client.get(reverse("money:table", args=[five.pk])).content.decode()
    assert re.search(
        r'role-box[^"]*">\s*<span class="role">[^<]*</span> <span class="who">Bruno', page
    )
    totals = dict(re.findall(r"<td>(\w+)</td>\s*<td class=\"num points\"[^>]*>(-?\d+)</td>", page))
    assert sum(int(v) for v in totals.values()) == 0
    assert totals["Elena"] == "-1"  # dropped the box's double: one point to the box


def test_a_tap_that_came_too_late_is_refused_in_words(client, people, five):
    from rules.chouette import events as ev

    client.force_login(people["Carla"].user)
    ordered(client, five, people)
    response = tap(client, five, ev.Answer(member=pid(people["Carla"]), answer="take"))
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()


NOT_OFFERED = "This button is not one the table offers"


@pytest.mark.parametrize(
    "sent, said",
    [
        ("", "This field is required."),
        ("{", NOT_OFFERED),
        ("[]", NOT_OFFERED),
        ('{"kind": "nothing"}', NOT_OFFERED),
        ('{"kind": "answer"}', NOT_OFFERED),
        ('{"kind": "answer", "member": "1", "answer": "take", "x": 1}', NOT_OFFERED),
        ("\x00", "Null characters are not allowed."),
    ],
)
def test_a_button_the_table_never_offered_is_refused_in_words(client, people, five, sent, said):
    client.force_login(people["Carla"].user)
    response = client.post(reverse("money:act", args=[five.pk]), {"event": sent, "version": "0"})
    assert response.status_code == 400 and said in text(response)


def test_the_deal_and_the_result_forms_say_what_is_wrong(client, people, five):
    from rules.chouette import events as ev

    client.force_login(people["Anna"].user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    deal = {"members": [pid(people["Carla"])], "points": "0", "version": version(five)}
    response = client.post(reverse("money:deal", args=[five.pk]), deal)
    assert response.status_code == 400 and "not zero" in text(response)
    deal["members"] = ["999999"]
    deal["points"] = "2"
    assert client.post(reverse("money:deal", args=[five.pk]), deal).status_code == 400
    response = client.post(
        reverse("money:end", args=[five.pk]), {"winner": "nobody", "version": version(five)}
    )
    assert response.status_code == 400 and "Select a valid choice" in text(response)
    stale = client.post(
        reverse("money:end", args=[five.pk]), {"winner": "box", "level": "single", "version": "0"}
    )
    assert stale.status_code in (400, 409) and 'role="alert"' in stale.content.decode()


def test_a_deal_settles_some_members_and_the_game_goes_on(client, people, five):
    """Club practice: the box and Carla settle at 2 points; the others play on."""
    from rules.chouette import events as ev

    client.force_login(people["Anna"].user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    deal = {"members": [pid(people["Carla"])], "points": "2", "version": version(five)}
    response = client.post(reverse("money:deal", args=[five.pk]), deal)
    assert response.status_code == 302, text(response)[:3000]
    page = text(client.get(reverse("money:table", args=[five.pk])))
    assert 'data-member="' + pid(people["Carla"]) + '"' not in page  # out of the game


def test_undo_drops_the_last_game_and_the_log_keeps_its_lines(client, people, five):
    from rules.chouette import events as ev

    client.force_login(people["Anna"].user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    result(client, five, "box")
    lines = five.events.count()
    response = client.post(reverse("money:undo", args=[five.pk]), {"version": version(five)})
    assert response.status_code == 302
    assert five.events.count() == lines + 1
    page = client.get(reverse("money:table", args=[five.pk])).content.decode()
    assert page.count('id="log-') == lines + 1
    assert page.count('class="undone"') == 2  # the game's start and its end, struck through
    assert re.search(
        r'role-box[^"]*">\s*<span class="role">[^<]*</span> <span class="who">Anna', page
    )


def test_the_page_asks_for_its_content_only_and_gets_304_while_nothing_changed(
    client, people, five
):
    client.force_login(people["Dario"].user)
    url = reverse("money:table", args=[five.pk])
    page = client.get(url)
    etag = re.search(r'data-etag="([^"]+)"', page.content.decode()).group(1)
    content = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live")
    assert content.status_code == 200 and "<html" not in content.content.decode()
    assert content["ETag"] == etag.replace("&quot;", '"')
    same = client.get(
        url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live", HTTP_IF_NONE_MATCH=content["ETag"]
    )
    assert same.status_code == 304
    ordered(client, five, people)
    changed = client.get(
        url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live", HTTP_IF_NONE_MATCH=content["ETag"]
    )
    assert changed.status_code == 200 and "role-box" in changed.content.decode()


def test_the_settlement_sums_to_zero_with_the_fewest_transfers(client, people, five):
    from rules.chouette import events as ev

    client.force_login(people["Anna"].user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    result(client, five, "box", level="gammon")
    page = text(client.get(reverse("money:settlement", args=[five.pk])))
    assert re.search(r'id="points-sum">0<', page) and re.search(r'id="money-sum">0.00<', page)
    assert page.count('data-label="Pays"') == 4  # four members pay the box: four transfers
    italian = text(
        client.get(reverse("money:settlement", args=[five.pk]), HTTP_ACCEPT_LANGUAGE="it")
    )
    assert 'id="money-sum">0,00<' in italian


def test_stake_and_seat_forms_refuse_in_words(client, people, start_table, director):
    table = start_table([people["Anna"], people["Bruno"]])
    client.force_login(people["Anna"].user)
    response = client.post(
        reverse("money:stake", args=[table.pk]), {"player": people["Anna"].pk, "stake": "-1"}
    )
    assert response.status_code == 400 and "greater than or equal to 0" in text(response)
    response = client.post(reverse("money:seat", args=[table.pk]), {"player": people["Anna"].pk})
    assert response.status_code == 400 and "Select a valid choice" in text(response)
    assert (
        client.post(
            reverse("money:seat", args=[table.pk]), {"player": people["Carla"].pk}
        ).status_code
        == 302
    )
    assert table.seats.count() == 3


def test_a_director_corrects_a_result_and_the_audit_keeps_it(client, people, five, director):
    from club.models import AuditEntry
    from rules.chouette import events as ev

    client.force_login(people["Anna"].user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    result(client, five, "box")
    end = five.events.get(data__kind="end")
    client.force_login(director)
    url = reverse("money:correct", args=[five.pk, end.seq])
    form = text(client.get(url))
    assert 'value="box" checked' in form or re.search(r'value="box"[^>]*checked', form)
    audits = AuditEntry.objects.count()
    refused = client.post(url, {"winner": "team", "level": "triple", "version": version(five)})
    assert refused.status_code == 400 and "Select a valid choice" in text(refused)
    response = client.post(url, {"winner": "team", "level": "single", "version": version(five)})
    assert response.status_code == 302, text(response)[:3000]
    assert AuditEntry.objects.count() > audits
    page = client.get(reverse("money:table", args=[five.pk])).content.decode()
    assert re.search(
        r'role-box[^"]*">\s*<span class="role">[^<]*</span> <span class="who">Bruno', page
    )


def test_the_player_s_page_lists_their_tables_for_members_only(client, people, five):
    from rules.chouette import events as ev

    client.force_login(people["Anna"].user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    result(client, five, "box")
    url = people["Bruno"].get_absolute_url()
    page = text(client.get(url))
    assert 'id="money-tables"' in page and five.name in page
    client.logout()
    assert 'id="money-tables"' not in text(client.get(url))


def test_the_box_doubles_the_cubes_it_ticks_and_a_wrong_tick_is_said(client, people, start_table):
    """Galore 3.5: with a cube each, the box may double some members and not others."""
    from rules.chouette import CubeMode
    from rules.chouette import events as ev

    anna, bruno, carla, dario = (people[name] for name in ("Anna", "Bruno", "Carla", "Dario"))
    table = start_table([anna, bruno, carla, dario], cubes=CubeMode.MULTIPLE)
    client.force_login(anna.user)
    opening(client, table, {anna: 6, bruno: 5, carla: 4, dario: 3})
    tap(client, table, ev.StartGame())
    url = reverse("money:box_doubles", args=[table.pk])
    for members, said in (([], "This field is required."), (["999"], "Select a valid choice")):
        refused = client.post(url, {"members": members, "version": version(table)})
        assert refused.status_code == 400 and said in text(refused)
    done = client.post(url, {"members": [pid(carla), pid(dario)], "version": version(table)})
    assert done.status_code == 302
    page = client.get(reverse("money:table", args=[table.pk])).content.decode()
    waiting = re.findall(r'<tr class="waiting[^"]*" data-member="(\d+)"', page)
    assert sorted(waiting) == sorted([pid(carla), pid(dario)])


def test_a_director_corrects_whom_the_box_doubled_by_name(client, people, five, director):
    """The box's double is corrected with its members ticked by name, never as engine data;
    with one cube the box doubles every member still in (Galore 3.3), so leaving one out is
    refused in words and the line stays as it was."""
    from rules.chouette import events as ev

    anna, bruno, carla, dario, elena = people.values()
    client.force_login(anna.user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    members = (pid(bruno), pid(carla), pid(dario), pid(elena))
    tap(client, five, ev.BoxDoubles(members=members))
    line = five.events.get(data__kind="box-doubles")
    client.force_login(director)
    url = reverse("money:correct", args=[five.pk, line.seq])
    form = client.get(url).content.decode()
    assert "Bruno" in form and '"kind"' not in form
    assert len(re.findall(r'type="checkbox"[^>]*checked', form)) == 4
    some = {"members": [pid(bruno), pid(carla)], "version": version(five)}
    refused = client.post(url, some)
    assert refused.status_code == 400 and "Galore 3.3" in text(refused), text(refused)[-2000:]
    line.refresh_from_db()
    assert sorted(line.data["members"]) == sorted(members)


@pytest.mark.parametrize(
    "kind, sent, said",
    [
        ("opening", {"die_X": "7"}, "Select a valid choice"),
        ("start-game", {"event": "{"}, "This button is not one the table offers"),
        ("box-doubles", {"members": ["999"]}, "Select a valid choice"),
        ("box-doubles", {"members": []}, "This field is required."),
        ("answer", {"answer": "maybe"}, "Select a valid choice"),
        ("deal", {"members": [], "points": "1"}, "This field is required."),
    ],
)
def test_each_correction_form_says_what_is_wrong(client, people, five, director, kind, sent, said):
    """A director's correction of each kind of line refused in words, never a 500: the
    whole log must still replay (the service) and each field be one the form offers."""
    from rules.chouette import events as ev

    anna, bruno, carla, dario, elena = people.values()
    client.force_login(anna.user)
    ordered(client, five, people)
    tap(client, five, ev.StartGame())
    members = (pid(bruno), pid(carla), pid(dario), pid(elena))
    tap(client, five, ev.BoxDoubles(members=members))
    for member, answer in ((bruno, "take"), (carla, "take"), (dario, "take"), (elena, "drop")):
        tap(client, five, ev.Answer(member=pid(member), answer=answer))
    deal = {"members": [pid(carla)], "points": "1", "version": version(five)}
    response = client.post(reverse("money:deal", args=[five.pk]), deal)
    assert response.status_code == 302, text(response)[-2000:]
    line = five.events.filter(data__kind=kind).first()
    client.force_login(director)
    url = reverse("money:correct", args=[five.pk, line.seq])
    assert client.get(url).status_code == 200
    data = dict(sent)
    if "die_X" in data:
        data = {f"die_{player.pk}": "7" for player in people.values()}
    data["version"] = version(five)
    response = client.post(url, data)
    assert response.status_code == 400 and said in text(response), text(response)[-3000:]
