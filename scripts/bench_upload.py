"""Benchmark: the largest match files the site takes, uploaded through the pages, on a throwaway
SQLite database.

    .venv/bin/python scripts/bench_upload.py [--repeat 3] [--kb 1000] [--rows]

Each file is as large as ``MATCH_FILE_MAX_KB`` allows (1 MB by default), made of the real
games of tests/data/corpus/mat/td-gammon_173915-WCfinal.mat written again and again:

- ``99-point match``: the longest match the site has (MAX_LENGTH); the reader stops after
  the 2 x 99 - 1 + 5 games such a match can have, and the rest is not read;
- ``25-point match``: the same for a long final;
- ``money session``: no bound from its length, so the whole file is read (and refused: no
  match on the site is to 0 points);
- ``one game, then rolls``: a 1-point match whose game ends early and whose file goes on with
  rolls to the limit, each a problem of the log.

For each: the import preview (a POST with the file) the first time, when the file is
replayed, and again, when the kept replay is used; the confirmation (the import); a
dispute opened with the file and its page. Prints one JSON line per file: seconds, best of
``--repeat`` (each repeat on a fresh cache), and the games read. ``--kb`` makes the files
smaller, for a quick try; ``--rows`` prints the rows of docs/benchmarks.md's table instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench_report import Row, print_rows, row

if TYPE_CHECKING:
    from django.http.response import HttpResponseBase

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "data" / "corpus" / "mat" / "td-gammon_173915-WCfinal.mat"


def filled(length: int, limit: int) -> str:
    """A match file of the corpus's games, renumbered, as long as ``limit`` bytes allow."""
    text = SOURCE.read_text(encoding="utf-8-sig")
    games = re.split(r"(?m)^\s*Game \d+\s*$", text)[1:]
    out, number = f" {length} point match\n\n", 0
    while True:
        chunk = f" Game {number + 1}\n" + games[number % len(games)].strip("\n") + "\n\n"
        if len(out) + len(chunk) > limit:
            return out
        out += chunk
        number += 1


def one_game_then_rolls(limit: int) -> str:
    text = SOURCE.read_text(encoding="utf-8-sig")
    first = re.split(r"(?m)^\s*Game \d+\s*$", text)[1].strip("\n")
    out = " 1 point match\n\n Game 1\n" + first + "\n"
    roll_line = "{:3d}) 31: 8/5 6/5                  42: 8/4 6/4\n"
    number = 1
    while len(out) + 50 < limit:
        out += roll_line.format(number % 1000)
        number += 1
    return out


def rows(results: list[dict[str, Any]], repeat: int) -> list[Row]:
    """The preview of each file; for the first (the longest match), its import too."""
    found: list[Row] = []
    passes = f"best of {repeat}" if repeat > 1 else "one pass"
    for number, result in enumerate(results):
        seconds = result["seconds"]
        what = f"{result['file']}, {result['kB']:,} kB"
        if result["games written"] > 1:
            what += f", {result['games read']} of its {result['games written']} games read"
        if "import" not in seconds:
            beside = f"refused, as it should be; shown again: {seconds['preview again']} s"
        else:
            beside = f"shown again (its replay kept): {seconds['preview again']} s"
        found.append(
            row(
                f"the import preview of a match file: {what}; {passes}",
                seconds["preview"],
                "s",
                "",
                beside,
            )
        )
        if number == 0 and "import" in seconds:
            found.append(
                row(
                    f"importing that file (the confirmation), {passes}",
                    seconds["import"],
                    "s",
                    "",
                    f"a dispute opened with it: {seconds['dispute opened']} s;"
                    f" its page: {seconds['dispute page']} s",
                )
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--kb", type=int, help="the files' size (default: the largest taken)")
    parser.add_argument("--rows", action="store_true", help="rows of docs/benchmarks.md")
    options = parser.parse_args()
    results: list[dict[str, Any]] = []

    workdir = tempfile.mkdtemp(prefix="crawford-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # measured as on a laptop (make run), DEBUG's default off
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from club.policy import SYSTEM
    from club.services import player_create
    from matches.models import Dispute
    from matches.services import MAX_LENGTH, match_create
    from rules.matfile import read_mat

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)
    director = User.objects.create_superuser("bench", password="bench-password-1")
    client = Client()
    client.force_login(director)
    record = read_mat(SOURCE.read_bytes())
    a = player_create(name=record.players[0], user=SYSTEM)
    b = player_create(name=record.players[1], user=SYSTEM)
    limit = settings.MATCH_FILE_MAX_BYTES
    if options.kb:
        limit = min(limit, options.kb * 1000)
    files = {
        f"{MAX_LENGTH}-point match": (MAX_LENGTH, filled(MAX_LENGTH, limit)),
        "25-point match": (25, filled(25, limit)),
        "money session": (1, filled(0, limit)),
        "one game, then rolls": (1, one_game_then_rolls(limit)),
    }

    def timed(
        seconds: dict[str, float],
        step: str,
        send: Callable[..., HttpResponseBase],
        *args: Any,
        **kwargs: Any,
    ) -> HttpResponseBase:
        start = time.perf_counter()
        response = send(*args, **kwargs)
        seconds[step] = time.perf_counter() - start
        return response

    def once(length: int, text: str) -> dict[str, float]:
        """Each step timed once, on a fresh cache."""
        cache.clear()
        data, seconds = text.encode(), dict[str, float]()
        match = match_create(player_a=a, player_b=b, length=length, user=SYSTEM)
        url = reverse("match_import", args=[match.pk])
        for step in ("preview", "preview again"):
            shown = timed(seconds, step, client.post, url, {"file": SimpleUploadedFile("m", data)})
        if shown.status_code != 200:  # refused: the file is not for this match
            return seconds
        confirm = {"text": text, "left": "0", "confirm": "1"}
        assert timed(seconds, "import", client.post, url, confirm).status_code == 302
        other = match_create(player_a=a, player_b=b, length=length, user=SYSTEM)
        new = reverse("dispute_new", args=[other.pk])
        timed(seconds, "dispute opened", client.post, new, {"file": SimpleUploadedFile("m", data)})
        page = Dispute.objects.latest("pk").get_absolute_url()
        assert timed(seconds, "dispute page", client.get, page).status_code == 200
        return seconds

    for name, (length, text) in files.items():
        assert len(text.encode()) <= limit
        best: dict[str, float] = {}
        for _ in range(options.repeat):
            for step, value in once(length, text).items():
                best[step] = min(best.get(step, value), value)
        line = {
            "file": name,
            "kB": round(len(text.encode()) / 1000),
            "games written": text.count(" Game "),
            "games read": len(read_mat(text).games),
            "seconds": {step: round(value, 3) for step, value in best.items()},
        }
        results.append(line)
        if not options.rows:
            print(json.dumps(line), flush=True)
    if options.rows:
        print_rows(rows(results, options.repeat))


if __name__ == "__main__":
    main()
