"""Match files on the import and dispute pages: a limit on their size, a reader bounded by the
match's length, and a replay made once and kept for every later view of the page."""

import html
import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from club.policy import SYSTEM
from club.services import player_create
from matches import matfiles
from matches.models import BoardAction, BoardGame, Dispute, Game
from matches.services import match_create
from rules.matfile import read_mat
from rules.replay import replay_match
from tests.conftest import DATA

pytestmark = pytest.mark.django_db

CHARLOT = DATA / "corpus" / "mat" / "gnubgparser_charlot1-charlot2_7p.mat"
PAGES = ["match_import", "dispute_new"]


@pytest.fixture(autouse=True)
def nothing_kept():
    cache.clear()  # each test starts with no replay kept (the cache lives as long as the worker)
    yield
    cache.clear()


@pytest.fixture
def charlot(director):
    """A 7-point match between the players of a corpus file, nothing recorded."""
    a = player_create(name="charlot1", user=SYSTEM)
    b = player_create(name="charlot2", user=SYSTEM)
    return match_create(player_a=a, player_b=b, length=7, user=director)


def page_text(response):
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def upload(size, name="big.mat"):
    return SimpleUploadedFile(name, b" 7 point match\n" + b"x" * (size - 15))


# --- the limit on a file's size -------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
@override_settings(MATCH_FILE_MAX_BYTES=1_500_000)
def test_a_file_over_the_limit_is_refused_in_words_and_numbers_of_the_language(
    director_client, charlot, page
):
    url = reverse(page, args=[charlot.pk])
    response = director_client.post(url, {"file": upload(1_500_001)})
    assert response.status_code == 413
    assert "The file is too large: a match file may be at most 1,500 kB." in page_text(response)
    italian = director_client.post(url, {"file": upload(1_500_001)}, HTTP_ACCEPT_LANGUAGE="it")
    assert italian.status_code == 413
    assert "Il file è troppo grande: un file di partita può essere al massimo di 1.500 kB." in (
        page_text(italian)
    )
    assert '<input type="file" name="file"' in italian.content.decode()  # the form, to try again
    assert not Dispute.objects.exists() and not BoardGame.objects.exists()
    # exactly the limit is taken (and read: this one is not a match file)
    at_limit = director_client.post(url, {"file": upload(1_500_000)})
    assert at_limit.status_code == 400 and "not a match file we can read" in page_text(at_limit)


@override_settings(MATCH_FILE_MAX_BYTES=2_000)
def test_text_sent_back_over_the_limit_is_refused_too(director_client, charlot):
    """The preview carries the file's text to the confirmation: that is held to the limit."""
    url = reverse("match_import", args=[charlot.pk])
    response = director_client.post(url, {"text": "x" * 2_001, "left": "0", "confirm": "1"})
    assert response.status_code == 413 and "at most 2 kB" in page_text(response)
    assert not BoardGame.objects.exists()


class Unreadable:
    """A request body that must not be read."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


@pytest.mark.parametrize("page", PAGES)
def test_a_request_larger_than_any_match_file_is_refused_unread(director, charlot, page):
    """Over what the form can hold, the size the request declares is enough: 413 with the
    form and the refusal, and the body is never read (not by the CSRF check either)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    response = client.generic(
        "POST",
        reverse(page, args=[charlot.pk]),
        content_type="multipart/form-data; boundary=BoUnDaRy",
        **{"wsgi.input": Unreadable(), "CONTENT_LENGTH": "50000000"},
    )
    assert response.status_code == 413
    assert "a match file may be at most 1,000 kB" in page_text(response)  # the default
    assert not Dispute.objects.exists()


def test_a_form_too_large_for_django_gets_a_page_in_words_not_a_bare_error(director, match5):
    """Django refuses a form over DATA_UPLOAD_MAX_MEMORY_SIZE before any view (RequestDataTooBig):
    the visitor gets the 413 page in their language, never "Bad Request (400)" or a 500."""
    client = Client(enforce_csrf_checks=True)  # as a browser: the CSRF check reads the form
    client.force_login(director)
    client.get(match5.get_absolute_url())  # the CSRF cookie, as a browser has it
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000):
        body = "number=1&winner=0&notes=" + "x" * 20_000
        for language, words in [
            (
                "en",
                "What was sent is larger than the site reads: a match file may be at most "
                "1,000 kB. Nothing was changed.",
            ),
            (
                "it",
                "Ciò che è stato inviato è più grande di quanto il sito legge: un file di "
                "partita può essere al massimo di 1.000 kB. Non è stato cambiato nulla.",
            ),
        ]:
            response = client.post(
                reverse("game_new", args=[match5.pk]),
                body,
                content_type="application/x-www-form-urlencoded",
                HTTP_ACCEPT_LANGUAGE=language,
            )
            assert response.status_code == 413
            assert words in page_text(response)
    assert not Game.objects.exists()


def test_a_request_django_cannot_read_otherwise_gets_a_plain_400_page(director, match5):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    client.get(match5.get_absolute_url())
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=5):
        body = "&".join(f"f{n}=1" for n in range(20))
        response = client.post(
            reverse("game_new", args=[match5.pk]),
            body,
            content_type="application/x-www-form-urlencoded",
        )
    assert response.status_code == 400
    assert "The site could not read what was sent. Nothing was changed." in page_text(response)


# --- the reader stops where the match's length does -------------------------------------------


def test_a_file_going_on_past_the_match_length_is_read_only_so_far(director_client, anna, bruno):
    """A 3-point match counts at most 5 games: the reader reads 10 and says where it stopped."""
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    game = (
        " Game {n}\n Anna Rossi : 0                 Bruno Bianchi : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n\n"
    )
    text = " 3 point match\n\n" + "".join(game.format(n=n) for n in range(1, 400))
    line = text.splitlines().index(" Game 11") + 1
    url = reverse("match_import", args=[match.pk])
    with mock.patch.object(matfiles, "replay_match", wraps=replay_match) as replayed:
        response = director_client.post(
            url, {"file": SimpleUploadedFile("long.mat", text.encode())}
        )
    assert response.status_code == 200
    assert len(replayed.call_args.args[0].games) == 10  # what was replayed: 10 games, not 399
    assert re.search(
        rf'data-line="{line}"><td[^>]*>{line}</td><td[^>]*>—</td><td[^>]*><span class="kind">'
        r"Rest of the file "
        r"not read</span>: the file goes on after game 10, but a 3-point match has at most 5 "
        r"games that count: the rest of the file is not read",
        response.content.decode(),
    )
    italian = page_text(
        director_client.post(
            url, {"file": SimpleUploadedFile("long.mat", text.encode())}, HTTP_ACCEPT_LANGUAGE="it"
        )
    )
    assert (
        "Resto del file non letto</span>: il file continua dopo il gioco 10, ma una partita ai "
        "3 punti ha al massimo 5 giochi che contano: il resto del file non viene letto"
    ) in italian


# --- a replay is made once, and kept -----------------------------------------------------------


def counted():
    """Count the site's replays (the engine's replay_match, as matches.matfiles calls it)."""
    return mock.patch.object(matfiles, "replay_match", wraps=replay_match)


def test_an_import_is_replayed_once_however_often_its_preview_is_shown(director_client, charlot):
    url = reverse("match_import", args=[charlot.pk])
    data = CHARLOT.read_bytes()
    with counted() as replayed:
        first = director_client.post(url, {"file": SimpleUploadedFile("c.mat", data)})
        assert first.status_code == 200 and replayed.call_count == 1
        # the page reloaded (the browser sends the file again), and in Italian
        again = director_client.post(url, {"file": SimpleUploadedFile("c.mat", data)})
        italian = director_client.post(
            url, {"file": SimpleUploadedFile("c.mat", data)}, HTTP_ACCEPT_LANGUAGE="it"
        )
        assert again.status_code == italian.status_code == 200
        assert 'id="no-problems"' in again.content.decode()
        assert "Il log non viola nessuna regola" in page_text(italian)
        # the confirmation imports from the kept replay, engine logs and all
        text = html.unescape(
            re.search(
                r'<textarea name="text" hidden>\n(.*?)</textarea>', first.content.decode(), re.S
            )[1]
        )
        done = director_client.post(url, {"text": text, "left": "0", "confirm": "1"})
        assert done.status_code == 302
        assert replayed.call_count == 1
    fresh = replay_match(read_mat(data))
    assert BoardAction.objects.count() == sum(len(game.log) for game in fresh.games)
    assert Game.objects.filter(match=charlot).count() == len(fresh.games)


def test_a_dispute_is_replayed_once_for_all_its_page_views(director_client, charlot, record):
    record(charlot, 1)  # the sheet says charlot2 won game 1; the file says otherwise
    with counted() as replayed:
        opened = director_client.post(
            reverse("dispute_new", args=[charlot.pk]),
            {"file": SimpleUploadedFile("c.mat", CHARLOT.read_bytes())},
        )
        assert opened.status_code == 302 and replayed.call_count == 1
        url = opened["Location"]
        assert director_client.get(url).status_code == 200
        assert "part ways at game 1" in page_text(director_client.get(url))
        assert director_client.get(url, HTTP_ACCEPT_LANGUAGE="it").status_code == 200
        sheets = director_client.post(url, {"sheets": "1", "a_a": "7", "a_b": "2"})
        assert sheets.status_code == 302 and director_client.get(url).status_code == 200
        assert replayed.call_count == 1  # every view since the upload used the kept replay
        director_client.post(url, {"decide": "1"})
        assert replayed.call_count == 1
    assert Dispute.objects.get().decision == "log"


def test_a_change_to_the_engine_replays_again(director_client, charlot):
    url = reverse("match_import", args=[charlot.pk])
    data = CHARLOT.read_bytes()
    with counted() as replayed:
        director_client.post(url, {"file": SimpleUploadedFile("c.mat", data)})
        with mock.patch.object(matfiles, "ENGINE_VERSION", "another-engine"):
            director_client.post(url, {"file": SimpleUploadedFile("c.mat", data)})
        assert replayed.call_count == 2
    assert matfiles._engine_version() == matfiles.ENGINE_VERSION  # the rules' source, hashed


def test_a_cache_that_does_not_answer_only_costs_a_replay(director_client, charlot, cache_down):
    url = reverse("match_import", args=[charlot.pk])
    with counted() as replayed:
        response = director_client.post(
            url, {"file": SimpleUploadedFile("c.mat", CHARLOT.read_bytes())}
        )
    assert response.status_code == 200 and replayed.call_count == 1
    assert 'id="no-problems"' in response.content.decode()


def test_the_pages_query_counts(director_client, charlot, record, django_assert_num_queries):
    """Pinned: a change that adds a query to these pages shows here (and is a choice)."""
    record(charlot, 1)
    data = CHARLOT.read_bytes()
    opened = director_client.post(
        reverse("dispute_new", args=[charlot.pk]), {"file": SimpleUploadedFile("c.mat", data)}
    )
    # session, user, the dispute with its match and players, the match's place (the policy's
    # question), the Directors group, the recorded games and penalty points, the Directors
    # group for the menu
    with django_assert_num_queries(8):
        assert director_client.get(opened["Location"]).status_code == 200
    other = match_create(
        player_a=charlot.player_a, player_b=charlot.player_b, length=7, user=SYSTEM
    )
    preview_url = reverse("match_import", args=[other.pk])
    director_client.post(preview_url, {"file": SimpleUploadedFile("c.mat", data)})
    # session, user, the match, its games and penalty points, its place, the Directors group
    # twice: no replay
    with django_assert_num_queries(8):
        assert (
            director_client.post(
                preview_url, {"file": SimpleUploadedFile("c.mat", data)}
            ).status_code
            == 200
        )


def test_a_log_with_thousands_of_problems_lists_the_first_and_says_how_many_more(
    director_client, anna, bruno
):
    """A file that goes on rolling after its game ended has a problem per roll (tens of
    thousands in a megabyte): the page lists 200 and counts the rest, kept or not."""
    match = match_create(player_a=anna, player_b=bruno, length=1, user=SYSTEM)
    text = (
        " 1 point match\n\n Game 1\n Anna Rossi : 0                 Bruno Bianchi : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n"
    ) + "".join(f"{n:3d}) 31: 8/5 6/5                 42: 8/4 6/4\n" for n in range(3, 303))
    last_listed = 7 + 99  # two problems a line, from line 7
    url = reverse("match_import", args=[match.pk])
    with counted() as replayed:
        for language in ("en", "it", "en"):
            response = director_client.post(
                url,
                {"file": SimpleUploadedFile("m.mat", text.encode())},
                HTTP_ACCEPT_LANGUAGE=language,
            )
            page = response.content.decode()
            assert response.status_code == 200 and page.count('class="problem-row') == 200
            assert f'data-line="{last_listed}"' in page
            assert f'data-line="{last_listed + 1}"' not in page
        assert replayed.call_count == 1
    assert "600 problems in the log" in page
    assert f"400 more problems, after line {last_listed}, are not listed." in page
    italian = director_client.post(
        url, {"file": SimpleUploadedFile("m.mat", text.encode())}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert f"Altri 400 problemi, dopo la riga {last_listed}, non sono elencati." in (
        italian.content.decode()
    )


def test_a_file_refused_for_its_rules_is_read_once_and_refused_again_in_words(
    director_client, anna, bruno
):
    """What the refusal needs (the starting score, the variation, the Crawford rule) is kept
    with the file's hash, so showing the page again neither reads nor replays it."""
    match = match_create(player_a=anna, player_b=bruno, length=3, user=SYSTEM)
    text = (
        " 3 point match\n\n Game 1\n Anna Rossi : 2                 Bruno Bianchi : 1\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n"
    )
    url = reverse("match_import", args=[match.pk])
    read = mock.patch.object(matfiles, "read_mat", wraps=read_mat)
    with counted() as replayed, read as reads:
        for language, words in [
            ("en", "The file continues a match at 2-1 begun in another file"),
            ("it", "Il file continua una partita iniziata in un altro file, sul 2-1"),
        ]:
            response = director_client.post(
                url,
                {"file": SimpleUploadedFile("m.mat", text.encode())},
                HTTP_ACCEPT_LANGUAGE=language,
            )
            assert response.status_code == 400 and words in page_text(response)
        assert reads.call_count == 1 and replayed.call_count == 0
