"""Match files on the import and dispute pages: a limit on their size, and a reader bounded by
the match's length."""

import html
import re
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from club.policy import SYSTEM
from club.services import player_create
from matches import matfiles
from matches.models import BoardGame, Dispute, Game
from matches.services import match_create
from rules.replay import replay_match
from tests.conftest import SHARED

pytestmark = pytest.mark.django_db

CHARLOT = SHARED / "corpus" / "mat" / "gnubgparser_charlot1-charlot2_7p.mat"
PAGES = ["match_import", "dispute_new"]


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
        rf'data-line="{line}"><td>{line}</td><td>—</td><td><span class="kind">Rest of the file '
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
