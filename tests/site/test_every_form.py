"""Every form of the site, refused: never a server error, always a page that says what is wrong.

Issue 23.3: a refused late entry answered 500 because its error page missed one template
value; every form's error path is rendered here, not only its success. Issue 23.6: no
parameter, however strange (a NUL byte, a huge number, a negative one, words where a number
is asked, dates that are not dates), makes a page fail.

The walk posts to every URL of the site that takes a POST, as the tournament's director, as
staff, as a player with an account and as a visitor, on a tournament as an evening leaves it
(a knockout drawn with games recorded, a game on the board, a dispute, a withdrawal's
walkover, a player's report waiting, a Swiss paired, a Swiss still taking entries, a request
to enter): nothing, then what the page would send, then each field the view read with each
nasty value. Every page is asked for with each query parameter it reads, likewise. Each
request runs in a transaction rolled back afterwards, so every one meets the same evening.
What a view reads is found by listening to it (:func:`listening`): a new field, or a new
page, is walked without a line here. Run on PostgreSQL too (a NUL byte fails there only):
``DATABASE_URL=postgres://... pytest tests/site/test_every_form.py``.
"""

from __future__ import annotations

import html
import re
import sys
from contextlib import contextmanager
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.db import transaction
from django.forms import BaseForm
from django.shortcuts import resolve_url
from django.utils.datastructures import MultiValueDict

from club.models import AuditEntry, Player
from club.services import invitation_issue
from matches.models import Match
from matches.services import game_record, match_record_final_score
from tests.test_permissions import site_patterns
from tournaments.models import EntryRequest, Event
from tournaments.services import (
    entry_withdraw,
    event_draw,
    tournament_open_entry_set,
    tournament_reports_set,
)
from tournaments.venue import tournament_tables_set

pytestmark = pytest.mark.django_db

# values no form of the site expects (issue 23.6): each is posted into every field in turn
NASTY = (
    "\x00",  # PostgreSQL refuses it in any text
    "x" * 100_000,
    "-1",
    "1e309",  # infinity, as a float
    "abc",
    "",
    " ",
    "0",
    "0.5",
    str(2**64),  # beyond any database's integers
    "99999-01-01",
)


@pytest.fixture
def evening(tournament, event_with, director, django_user_model, field):
    """A tournament as an evening leaves it (see the module)."""
    from matches.board.service import board_game_start
    from matches.disputes import dispute_open
    from matches.reports import report_make
    from tournaments.announcements import announcement_post

    tournament_reports_set(
        tournament=tournament,
        results_by="players",
        report_detail="either",
        confirm_minutes=15,
        user=director,
    )
    knockout = event_with(Event.Format.SINGLE, 8, lengths=(3, 3, 5))
    event_draw(event=knockout, seed=1, user=director)
    first = list(
        Match.objects.filter(place__event=knockout, place__round=1)
        .select_related("player_a", "player_b")
        .order_by("place__bracket_key")
    )
    played, on_board, finished, withdrawn = first
    game_record(match=played, number=1, winner=0, cube=1, result="single", user=director)
    game_record(match=played, number=2, winner=1, cube=2, result="single", user=director)
    text = (
        f" 3 point match\n\n Game 1\n {played.player_a.name} : 0{' ' * 10}"
        f"{played.player_b.name} : 0\n  1)                             41: 13/9 24/23\n"
        "  2) 31: 8/5 6/5                  Doubles => 2\n  3)  Drops\n"
    )
    dispute = dispute_open(match=played, user=director, text=text, left=0)
    board = board_game_start(match=on_board, user=director)
    match_record_final_score(match=finished, score_a=3, score_b=1, user=director)
    # a walkover, and a withdrawn place a late arrival may take
    entry_withdraw(entry=knockout.entries.get(player=withdrawn.player_b), user=director)

    swiss = event_with(Event.Format.SWISS, 6, swiss_rounds=3)
    event_draw(event=swiss, seed=2, user=director)  # round 1 paired
    tournament_tables_set(tournament=tournament, count=6, user=director)
    reported = Match.objects.filter(place__event=swiss).select_related("player_a", "player_b")
    reported = reported.order_by("pk").first()
    account = django_user_model.objects.create_user("anna", password="pw-anna-1")
    opponent = django_user_model.objects.create_user("bruno", password="pw-bruno-1")
    Player.objects.filter(pk=reported.player_a_id).update(user=account)
    Player.objects.filter(pk=reported.player_b_id).update(user=opponent)
    reported = Match.objects.select_related("player_a", "player_b").get(pk=reported.pk)
    report_make(match=reported, user=account, number=1, winner=0, cube=1, result="single")

    waiting = event_with(Event.Format.SWISS, 4, swiss_rounds=2, check_in=False)
    tournament_open_entry_set(tournament=tournament, allowed=True, user=director)
    outsider = field(1, "Asking")[0]
    asked = EntryRequest.objects.create(event=waiting, player=outsider)
    notice = announcement_post(tournament=tournament, text="Dinner at 8", user=director)
    invitation = invitation_issue(player=outsider, user=director)
    return {
        "tournament": tournament,
        "events": [knockout, swiss, waiting],
        "matches": [played, on_board, finished, withdrawn, reported],
        "entries": [waiting.entries.first(), knockout.entries.filter(status="withdrawn").first()],
        "player": reported.player_a,
        "request": asked,
        "dispute": dispute,
        "board": board,
        "announcement": notice,
        "token": invitation.token,
        "account": account,
    }


# --- where the walk goes ------------------------------------------------------------------


def site_routes() -> list[str]:
    """The site's own pages (the JSON API's parameters are walked with the API)."""
    return [route for route, _ in site_patterns() if not route.startswith("api/")]


PARTS = {
    "players": ("players/", "me/", "invitations/", "entry-requests/"),
    "tournaments": ("tournaments/",),
    "events": ("events/", "entries/"),
    "results": ("matches/",),
    "players' results": ("matches/<int:pk>/report/", "matches/<int:pk>/board/"),
    "match files": ("matches/<int:pk>/import/", "matches/<int:pk>/disputes/"),
}


def routes_of(part: str) -> list[str]:
    """The routes of one part of the site (a route goes to the part of its longest prefix)."""

    def part_of(route: str) -> str:
        matching = [(len(p), name) for name, ps in PARTS.items() for p in ps if route.startswith(p)]
        return max(matching)[1] if matching else "players"

    return [route for route in site_routes() if part_of(route) == part]


def targets(route: str, evening: dict) -> list[str]:
    """Every address of the route on the evening's things (each event, each match...)."""
    if "<int:pk>" not in route:
        pks = [0]
    elif route.startswith("players/"):
        pks = [evening["player"].pk]
    elif route.startswith("tournaments/"):
        pks = [evening["tournament"].pk]
    elif route.startswith("events/"):
        pks = [e.pk for e in evening["events"]]
    elif route.startswith("entries/"):
        pks = [e.pk for e in evening["entries"]]
    elif route.startswith("entry-requests/"):
        pks = [evening["request"].pk]
    else:
        pks = [m.pk for m in evening["matches"]]
    numbers = {
        "disputes/<int:number>": evening["dispute"].pk,
        "announcements/<int:number>": evening["announcement"].pk,
        "board/<int:number>": evening["board"].number,
    }
    number = next((n for part, n in numbers.items() if part in route), 1)
    route = route.replace("<str:token>", evening["token"]).replace("<int:number>", str(number))
    return ["/" + route.replace("<int:pk>", str(pk)) for pk in pks]


def realistic(evening: dict, director) -> dict[str, str]:
    """A value each field of the site's forms would take on this evening: the walk changes
    one field at a time, the others as a director would send them."""
    knockout = evening["events"][0]
    free = Player.objects.exclude(entries__event=knockout).order_by("pk").first()
    return {
        "name": "Carla Verdi",
        "club": "Circolo Backgammon Milano",
        "country": "IT",
        "email": "carla@example.org",
        "phone": "+39 02 1234 5678",
        "date": "2026-12-14",
        "venue": "Milano",
        "directors": str(director.pk),
        "physical_dice": "on",
        "format": "swiss",
        "lengths": "5, 7",
        "seeding": "random",
        "swiss_rounds": "3",
        "players": str(free.pk),
        "player": str(free.pk),
        "player_a": str(evening["player"].pk),
        "player_b": str(free.pk),
        "length": "5",
        "seed": "7",
        "number": "3",
        "winner": "0",
        "cube": "1",
        "result": "single",
        "score_a": "3",
        "score_b": "1",
        "side": "0",
        "action": "roll",
        "die1": "6",
        "die2": "1",
        "play": "8/5 6/5",
        "allowed": "on",
        "tables": "8",
        "table": "2",
        "count_as": "bye",
        "results_by": "players",
        "report_detail": "either",
        "confirm_minutes": "15",
        "text": "Dinner at 9",
        "minutes": "30",
        "entry": str(evening["entries"][0].pk),
        "username": "carla",
        "password1": "tavola-reale-42",
        "password2": "tavola-reale-42",
        "emails": "on",
        "language": "it",
        "a_a": "3",
        "a_b": "1",
        "b_a": "1",
        "b_b": "3",
    }


def as_drawn(base: dict[str, str], path: str) -> dict[str, str]:
    """The base with what the page carried when it was drawn: the match's (or the board's,
    or the report's) version, the round's match to move, the event's time of drawing."""
    data = dict(base)
    if found := re.match(r"/matches/(\d+)/", path):
        match = Match.objects.get(pk=found.group(1))
        data["version"] = str(match.version)
        if board := re.match(r"/matches/\d+/board/(\d+)/", path):
            game = match.board_games.filter(number=board.group(1)).first()
            data["version"] = str(game.version if game else 0)
        pending = match.reports.filter(status="pending").first()
        if "/report/" in path and pending is not None:
            data["version"] = str(pending.version)
    if found := re.match(r"/events/(\d+)/", path):
        event = Event.objects.get(pk=found.group(1))
        data["drawn_at"] = event.drawn_at.isoformat() if event.drawn_at else ""
        first = Match.objects.filter(place__event=event).order_by("pk").first()
        data["match"] = str(first.pk) if first else ""
    return data


# --- listening to the views ---------------------------------------------------------------


@contextmanager
def listening():
    """What the views ask of a request while it runs: the keys of its data
    (``(id of the form data, query or files, key)``) and the forms they validate."""
    asked: set[tuple[int, str]] = set()
    validated: list = []
    get, getlist, contains = MultiValueDict.get, MultiValueDict.getlist, dict.__contains__
    full_clean = BaseForm.full_clean

    def getting(self, key, *args, **kwargs):
        asked.add((id(self), key))
        return get(self, key, *args, **kwargs)

    def listing(self, key, *args, **kwargs):
        asked.add((id(self), key))
        return getlist(self, key, *args, **kwargs)

    def containing(self, key):
        if not sys._getframe(1).f_code.co_filename.endswith("datastructures.py"):
            asked.add((id(self), key))  # asked by a view, not while the body is parsed
        return contains(self, key)

    def cleaning(self):
        validated.append(self)
        return full_clean(self)

    with (
        mock.patch.object(MultiValueDict, "get", getting),
        mock.patch.object(MultiValueDict, "getlist", listing),
        mock.patch.object(MultiValueDict, "__contains__", containing, create=True),
        mock.patch.object(BaseForm, "full_clean", cleaning),
    ):
        yield asked, validated


@pytest.fixture
def fast_pages(monkeypatch, settings):
    """Pages rendered without the test client's copy of every template's context (the walk
    looks at the page as a visitor would, and at the forms the view validated): a third
    faster; and passwords hashed the quick way (an account is made at every try)."""
    from django.template import Template
    from django.test.utils import _TestState

    monkeypatch.setattr(Template, "_render", _TestState.saved_data.template_render)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def page_text(response) -> str:
    if not response.get("Content-Type", "").startswith("text/html"):
        return ""
    return html.unescape(response.content.decode(errors="replace"))


def judged(response, validated: list, audits_before: int) -> str:
    """What is wrong with the answer to a POST, in words; empty when nothing is.

    A refusal says what is wrong: a 4xx page showing every error of the forms the view
    validated (or an alert), or a redirect with a message (to sign in, for a visitor); a page
    answered 200 refuses nothing; a redirect without a message did something (every write
    leaves an audit entry)."""
    status = response.status_code
    if status >= 500:
        return f"answered {status}"
    refused = [form for form in validated if form.errors]
    if status in (301, 302, 303):
        if response["Location"].startswith(resolve_url(settings.LOGIN_URL)):
            return ""
        if list(get_messages(response.wsgi_request)):
            return ""
        if AuditEntry.objects.count() > audits_before:
            return ""
        if re.search(r"/board/start/$", response.wsgi_request.path):
            return ""  # a second press lands on the game already open: the board shows it
        return "a redirect with no message, and nothing done"
    if status == 200:
        return f"refused with 200: {refused[0].errors.as_text()[:160]}" if refused else ""
    if status in (400, 409, 413):
        page = page_text(response)
        for form in refused:
            missing = [m for m in visible_errors(form) if m not in page]
            if missing:
                return f"{status} without its error: {missing[0][:160]!r}"
            if not any(m in page for errors in form.errors.values() for m in errors):
                return f"{status} with none of its errors: {form.errors.as_text()[:160]!r}"
        if not refused and 'role="alert"' not in page and 'class="errorlist' not in page:
            return f"{status} with no error shown"
    return ""


def visible_errors(form) -> list[str]:
    """The errors of a form a visitor must read: the form's own and those of the fields
    they fill in. A hidden field's (a page's version) may be said another way, as long as
    one of the form's errors is on the page."""
    return [
        message
        for name, messages in form.errors.items()
        if name not in form.fields or not form.fields[name].widget.is_hidden
        for message in messages
    ]


def shown(data: dict, base: dict) -> str:
    """What a request sent that a director would not have: the fields unlike the base."""
    if not data:
        return "nothing"
    odd = {k: v for k, v in data.items() if base.get(k) != v and k not in ("version", "match")}
    return (
        ", ".join(
            f"{k}={v!r}" if len(str(v)) < 24 else f"{k}={str(v)[:8]!r}…({len(str(v))})"
            for k, v in odd.items()
        )
        or "as drawn"
    )


class Walk:
    """Requests, each in a transaction rolled back (so each meets the same evening), and
    what went wrong with them."""

    def __init__(self, client, base: dict):
        self.client = client
        self.base = base
        self.wrong: list[str] = []
        self.count = 0

    def send(self, method: str, path: str, data: dict):
        """The answer (None when the view failed) and the keys the view asked of the data."""
        self.count += 1
        with transaction.atomic(), listening() as (asked, validated):
            audits = AuditEntry.objects.count()
            try:
                response = getattr(self.client, method)(path, data)
            except Exception as error:  # the view failed: what a visitor sees as a 500
                failure = f"{type(error).__name__}: {error}"
                self.wrong.append(f"{method} {path} [{shown(data, self.base)}]: {failure}")
                transaction.set_rollback(True)
                return None, set()
            if method == "post":
                said = judged(response, validated, audits)
            else:
                said = f"answered {response.status_code}" if response.status_code >= 500 else ""
            if said:
                self.wrong.append(f"{method} {path} [{shown(data, self.base)}]: {said}")
            transaction.set_rollback(True)
        request = response.wsgi_request
        where = id(request.POST if method == "post" else request.GET)
        return response, {key for place, key in asked if place == where}

    def forms(self, routes: list[str], evening: dict, *, fuzz: bool) -> None:
        """Post to every route, at every address: nothing, then the base; with ``fuzz``, also
        confirmed where the view asks first, then each field it read with each nasty value."""
        for route in routes:
            fields: dict[str, tuple[str, dict]] = {}
            for path in targets(route, evening):
                drawn = as_drawn(self.base, path)
                response, read = self.send("post", path, {})
                if response is not None and response.status_code == 405:
                    break  # the route takes no POST
                for key in read:
                    fields.setdefault(key, (path, drawn))
                for data in (drawn, {**drawn, "confirm": "1"}):
                    _, asked = self.send("post", path, data)
                    read |= asked
                    for key in asked:
                        fields.setdefault(key, (path, data))
                    if "confirm" not in read or not fuzz:
                        break  # past the page that asks first: for the fuzz
            if fuzz:
                for key, (path, data) in sorted(fields.items()):
                    for value in NASTY:
                        self.send("post", path, {**data, key: value})

    def queries(self, routes: list[str], evening: dict) -> None:
        """Every page, with each query parameter it reads set to each nasty value (and with
        the table's CSV asked too, where the page has one)."""
        for route in routes:
            params: dict[str, str] = {}
            exports = False
            for path in targets(route, evening):
                response, read = self.send("get", path, {})
                if response is None or response.status_code == 405:
                    continue
                _, exported = self.send("get", path, {"_export": "csv"})
                exports |= "_export" in exported
                for key in read | exported:
                    params.setdefault(key, path)
            for key, path in sorted(params.items()):
                for value in NASTY:
                    self.send("get", path, {key: value})
                    if exports and key != "_export":
                        self.send("get", path, {key: value, "_export": "csv"})

    def verdict(self) -> str:
        return f"{len(self.wrong)} of {self.count} requests:\n" + "\n".join(self.wrong[:60])


# --- the walks ----------------------------------------------------------------------------


@pytest.mark.parametrize("part", PARTS)
def test_the_director_s_every_form_refused_says_what_is_wrong(
    client, director, evening, fast_pages, part
):
    """Issue 23.3 and 23.6: every form, empty, as drawn, and each field with each nasty
    value, as the tournament's director: no server error, and a refusal in words."""
    client.force_login(director)
    walk = Walk(client, realistic(evening, director))
    walk.forms(routes_of(part), evening, fuzz=True)
    assert walk.count >= 100
    assert not walk.wrong, walk.verdict()


@pytest.mark.parametrize("who", ["staff", "player", "anonymous"])
def test_every_form_refused_says_what_is_wrong_to_everyone(
    client, director, django_user_model, evening, fast_pages, who
):
    """Staff, the player with an account (their own profile, check-in, report and board)
    and a visitor (making an account, asking to enter): every form, empty and as drawn,
    and each field a view read of them with each nasty value."""
    if who == "staff":
        client.force_login(django_user_model.objects.create_user("staff", is_staff=True))
    elif who == "player":
        client.force_login(evening["account"])
    walk = Walk(client, realistic(evening, director))
    walk.forms(site_routes(), evening, fuzz=who != "staff")
    assert walk.count >= 100
    assert not walk.wrong, walk.verdict()


def test_no_query_parameter_fails_a_page(client, director, evening, fast_pages):
    """Issue 23.6: the filters of /matches/ and /players/, ?page=, ?sort=, ?_export=csv and
    every other parameter a page reads, each nasty value: no server error."""
    client.force_login(director)
    walk = Walk(client, {})
    walk.queries(site_routes(), evening)
    assert walk.count >= 300
    assert not walk.wrong, walk.verdict()
