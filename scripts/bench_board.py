"""Benchmark: a play's round trip on the board, on a throwaway SQLite database.

    .venv/bin/python scripts/bench_board.py [--plays 200] [--rows]

Games are played through the site as the board's script does it: each action a
POST with the board's version, answered with the new board rendered (the
``X-Board`` fragment). Each turn is a roll, then the play typed in notation (the
first legal play). Prints one JSON line: the median, 90th percentile and
slowest round trip of the plays, in milliseconds, and the database queries of
one play; the same for the rolls. ``--rows`` prints them instead as rows of
docs/benchmarks.md's table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_report import Row, met, print_rows, row

ROOT = Path(__file__).resolve().parent.parent


def rows(result: dict[str, Any]) -> list[Row]:
    play, roll = result["play"], result["roll"]
    return [
        row(
            "a play on the board: the POST and the new board rendered (SQLite), median of"
            f" {play['count']}",
            play["median_ms"],
            "ms",
            f"under 50 ms: {met(play['median_ms'] < 50)}",
            f"90th percentile {play['p90_ms']} ms, slowest {play['max_ms']} ms",
        ),
        row(
            f"a roll on the board, the same, median of {roll['count']}",
            roll["median_ms"],
            "ms",
            "",
            f"90th percentile {roll['p90_ms']} ms, slowest {roll['max_ms']} ms",
        ),
        row(
            "database queries of a play on the board",
            play["queries"],
            "queries",
            "",
            f"a roll: {roll['queries']}",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--plays", type=int, default=200)
    parser.add_argument("--rows", action="store_true", help="rows of docs/benchmarks.md")
    options = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="crawford-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ["DICE_SEED"] = "benchmark"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")  # measured as on a laptop (make run), DEBUG's default off
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)

    from club.policy import SYSTEM
    from club.services import player_create
    from matches.board.service import board_state
    from matches.models import BoardGame
    from matches.services import match_create

    director = User.objects.create_superuser("bench", password="bench-password-1")
    client = Client()
    client.force_login(director)
    anna, bruno = (
        player_create(name="Anna Rossi", user=SYSTEM),
        player_create(name="Bruno Bianchi", user=SYSTEM),
    )
    timings: dict[str, list[float]] = {"play": [], "roll": []}
    queries: dict[str, int] = {}

    def send(board_game: BoardGame, action: str, **data: str) -> None:
        board_game.refresh_from_db()
        url = reverse("board_act", args=[board_game.match_id, board_game.number])
        body = {"action": action, "version": board_game.version, **data}
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.post(url, body, headers={"X-Board": "1"})
            elapsed = time.perf_counter() - start
        assert response.status_code == 200, response.content.decode()[-500:]
        if action in timings:
            timings[action].append(elapsed * 1000)
            queries[action] = len(captured)

    while len(timings["play"]) < options.plays:
        match = match_create(player_a=anna, player_b=bruno, length=7, user=SYSTEM)
        client.post(reverse("board_start", args=[match.pk]))
        while len(timings["play"]) < options.plays:
            board_game = BoardGame.objects.filter(match=match).order_by("-number").first()
            assert board_game is not None  # board_start made the first game
            state = board_state(board_game=board_game)
            if state.recorded:
                restarted = client.post(reverse("board_start", args=[match.pk]))
                if restarted.status_code != 302:
                    break  # the match is over: a new one
                continue
            phase = state.game.phase.value
            if phase == "opening":
                send(board_game, "opening")
            elif phase == "roll":
                send(board_game, "roll")
            elif phase == "move":
                send(board_game, "play", play=state.game.legal_plays[0].notation)
            else:
                send(board_game, "take")  # not reached: nobody doubles here

    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "count": len(ordered),
            "median_ms": round(statistics.median(ordered), 1),
            "p90_ms": round(ordered[int(len(ordered) * 0.9) - 1], 1),
            "max_ms": round(ordered[-1], 1),
        }

    result = {
        "benchmark": "board round trip (POST, new board rendered), SQLite",
        "play": {**summary(timings["play"]), "queries": queries["play"]},
        "roll": {**summary(timings["roll"]), "queries": queries["roll"]},
    }
    if options.rows:
        print_rows(rows(result))
    else:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
