"""Every page fits a 390-pixel phone: no sideways scrolling (headless Debian chromium).

A bracket wider than the phone scrolls inside its own box, not the page."""

import os

import pytest

from tests.conftest import CHROMIUM
from tests.helpers import browser_sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (apt-get install chromium)"
    ),
]

NAMES = [
    "Giancarlo Bartolomeo Santangelo",
    "Mariangela Pellegrino-Castelli",
    "Massimiliano Dell'Acqua",
    "Anna-Katharina Schwarzenberger",
]


@pytest.fixture
def drawn(event_with, director, record, finish):
    """A 16-player knockout with a consolation, drawn, round 1 partly played."""
    from club.services import player_create
    from matches.disputes import dispute_open
    from matches.models import Match
    from tournaments.models import Event
    from tournaments.services import event_draw

    people = [
        player_create(name=f"{NAMES[i % 4]} {i + 1:02}", club="Circolo Backgammon", user=director)
        for i in range(16)
    ]
    event = event_with(Event.Format.CONSOLATION, people, lengths=(5, 7, 9))
    # not entered: the late arrival's choice names them with their club and id
    player_create(
        name="Giancarlo Bartolomeo Santangelo-Pellegrino",
        club="Circolo Backgammon Città di Castello",
        user=director,
    )
    event_draw(event=event, seed=7, user=director)
    first, second = Match.objects.filter(place__event=event).order_by("id")[:2]
    record(first, 0, cube=2)
    record(first, 1, cube=2, result="gammon")
    finish(second, second.player_a, loser_points=3)
    a, b = first.player_a.name, first.player_b.name
    text = (
        f" 5 point match\n\n Game 1\n {a} : 0{' ' * max(2, 32 - len(a))}{b} : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Drops                      Wins 1 point\n"
    )
    dispute = dispute_open(match=first, user=director, text=text, filename="anna.mat", left=0)
    return event, first, dispute


CUT_OFF = """Array.from(document.querySelectorAll("input, select, textarea, button"))
    .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.name || e.id || e.tagName)"""


def test_the_event_page_the_score_sheet_and_a_dispute_fit_a_phone(browser, site, director, drawn):
    event, match, dispute = drawn
    too_wide = []
    for language in ("en-GB", "it-IT"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, locale=language, device_scale_factor=1
        )
        page = context.new_page()
        page.goto(f"{site.url}/accounts/login/")
        page.locator("#id_username").fill("director")
        page.locator("#id_password").fill("pw-director-1")
        page.locator("form button[type=submit]").last.click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        for path in (
            event.get_absolute_url(),
            f"/events/{event.pk}/bracket/",
            match.get_absolute_url(),
            f"/matches/{match.pk}/sheet/",
            dispute.get_absolute_url(),
            f"/tournaments/{event.tournament_id}/events/new/",
        ):
            page.goto(f"{site.url}{path}")
            width = page.evaluate("document.scrollingElement.scrollWidth")
            if width > 390:
                too_wide.append(f"{path} in {language}: {width} pixels")
            # a control cut off at the edge (a long select) does not always widen the page
            cut = page.evaluate(CUT_OFF)
            if cut:
                too_wide.append(f"{path} in {language}: {', '.join(cut)} cut off")
        context.close()
    assert not too_wide


# A table whose heading row a phone hides (the stacked layout): each cell under a named
# column must say that name before its content (data-label, shown by ::before), or say it
# in its own words ("Table 3", "no table" under "Table"). Cells of a column with no heading,
# and a row's single wide cell (an empty table's note), need none.
UNNAMED_CELLS = """Array.from(document.querySelectorAll("table")).flatMap(table => {
  const head = table.tHead;
  if (!head || getComputedStyle(head).display !== "none") return [];
  const names = Array.from(head.rows[0].cells).map(th => th.innerText.trim());
  return Array.from(table.tBodies).flatMap(body => Array.from(body.rows)).flatMap(row =>
    Array.from(row.cells).flatMap((cell, index) => {
      const name = names[index];
      if (!name || cell.colSpan > 1 || !cell.getClientRects().length) return [];
      const shown = getComputedStyle(cell, "::before").content;
      const said = shown && shown !== "none" && shown !== "normal" ? shown : "";
      if (said.includes(name) || cell.innerText.toLowerCase().includes(name.toLowerCase())) {
        return [];
      }
      const text = cell.innerText.trim().slice(0, 30);
      return [`${table.id || table.className}: "${text}" under "${name}"`];
    }));
})"""


@pytest.fixture
def evening(drawn, event_with, director, django_user_model):
    """The pages of the evening: the knockout above, a Swiss drawn beside it, a player with an
    account (their /me/), and a players file waiting in its preview."""
    from club.models import Player
    from club.services import player_create
    from tournaments.models import Event
    from tournaments.services import event_draw

    event, match, dispute = drawn
    swiss = event_with(
        Event.Format.SWISS,
        [player_create(name=f"{NAMES[i % 4]} S{i}", user=director) for i in range(6)],
        lengths=(3,),
        swiss_rounds=3,
    )
    event_draw(event=swiss, seed=3, user=director)
    account = django_user_model.objects.create_user("giancarlo", password="pw-player-1")
    Player.objects.filter(pk=match.player_a_id).update(user=account)
    return event, swiss, match, dispute


PLAYERS_FILE = (
    "Name;Club;Email\n"
    "Mariangela Pellegrino-Castelli Dell'Acqua;Circolo Backgammon Città di Castello;"
    "mariangela.pellegrino-castelli@circolo-backgammon-castello.example.org\n"
)


def test_every_page_of_the_evening_fits_a_phone_and_names_its_columns(
    browser, site, director, evening, tmp_path
):
    from matches.models import Match

    event, swiss, match, dispute = evening
    waiting = Match.objects.filter(
        place__event=event, games__isnull=True, final_score_a__isnull=True, walkover_winner=None
    )
    waiting = waiting.exclude(player_a=None).exclude(player_b=None).first()
    tournament = event.tournament_id
    directors_pages = [
        "/",
        "/tournaments/",
        f"/tournaments/{tournament}/",
        event.get_absolute_url(),
        swiss.get_absolute_url(),
        f"/events/{event.pk}/rounds/1/",
        f"/events/{swiss.pk}/rounds/1/",
        f"/events/{event.pk}/bracket/",
        f"/tournaments/{tournament}/dashboard/",
        f"/tournaments/{tournament}/playing/",
        f"/tournaments/{tournament}/changes/",
        f"/tournaments/{tournament}/invitations/",
        f"/tournaments/{tournament}/check-in/poster/",
        match.get_absolute_url(),
        f"/matches/{match.pk}/sheet/",
        f"/matches/{match.pk}/games/1/",
        waiting.get_absolute_url(),  # its result entry: a game, a final score, a walkover
        f"/matches/{match.pk}/import/",
        dispute.get_absolute_url(),
        "/matches/",
        "/players/",
        f"/players/{match.player_a_id}/",
        "/ratings/",
        "/ratings/formula/",
        "/players/import/",
        "/tournaments/new/",
        f"/tournaments/{tournament}/edit/",
        f"/tournaments/{tournament}/events/new/",
        f"/events/{swiss.pk}/edit/",
        "/players/new/",
        f"/players/{match.player_a_id}/edit/",
        f"/matches/{match.pk}/board/",
        f"/matches/{match.pk}/games/1/log/",
    ]
    players_pages = ["/me/", "/me/profile/", "/me/emails/", f"/tournaments/{tournament}/here/"]
    players_pages += [match.get_absolute_url(), f"/matches/{match.pk}/board/"]
    upload = tmp_path / "giocatori.csv"
    upload.write_text(PLAYERS_FILE, encoding="utf-8")
    found = []
    for language in ("en-GB", "it-IT"):
        for who, password, pages in (
            ("director", "pw-director-1", directors_pages),
            ("giancarlo", "pw-player-1", players_pages),
        ):
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, locale=language, device_scale_factor=1
            )
            page = context.new_page()
            browser_sign_in(page, site.url, who, password)
            for path in pages:
                answer = page.goto(f"{site.url}{path}")
                assert answer.status == 200, f"{path} as {who}: {answer.status}"
                found += _what_a_phone_shows(page, f"{path} ({who}, {language})")
                if path == "/players/import/":  # the preview of a file: a table of its rows
                    page.locator("input[type=file]").set_input_files(str(upload))
                    page.locator("main form button").first.click()
                    page.wait_for_load_state()
                    assert page.locator("#preview-rows").count() == 1
                    found += _what_a_phone_shows(page, f"{path} preview ({language})")
            context.close()
    assert not found, "\n".join(found)


def _what_a_phone_shows(page, where: str) -> list[str]:
    """What is wrong with the page on a phone: wider than it, a control cut off, a stacked
    table's cells that do not name their column."""
    wrong = []
    width = page.evaluate("document.scrollingElement.scrollWidth")
    if width > 390:
        wrong.append(f"{where}: {width} pixels wide")
    cut = page.evaluate(CUT_OFF)
    if cut:
        wrong.append(f"{where}: {', '.join(cut)} cut off")
    wrong += [f"{where}: {cell}" for cell in page.evaluate(UNNAMED_CELLS)]
    wrong += [f"{where}: {said}" for said in page.evaluate(HEADINGS_KEPT)]
    return wrong


# a table's heading row stays in the accessibility tree on a phone (never display: none), and
# a sortable table's sort links are there to tap (issue 30.6)
HEADINGS_KEPT = """() => {
  const wrong = [];
  document.querySelectorAll("table.table").forEach((table) => {
    const head = table.tHead;
    if (!head) { return; }
    if (getComputedStyle(head).display === "none") { wrong.push(`#${table.id} headings hidden`); }
    head.querySelectorAll("a").forEach((link) => {
      const box = link.getBoundingClientRect();
      if (box.width < 1 || box.height < 1 || box.right > innerWidth) {
        wrong.push(`#${table.id} sort link ${link.textContent.trim()} out of reach`);
      }
    });
  });
  return wrong;
}"""
