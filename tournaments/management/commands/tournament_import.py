"""Add a tournament from a file written by tournament_export (or downloaded from its page)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.policy import SYSTEM
from tournaments.transfer import document_read, tournament_import, tournament_import_plan


class Command(BaseCommand):
    help = (
        "Import a tournament from FILE ('-' for the standard input) as a new tournament: players "
        "matched by name, club and country or added, every match checked against the rules."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the tournament's JSON file, or - for the standard input")
        parser.add_argument(
            "--director",
            action="append",
            default=[],
            dest="directors",
            metavar="USERNAME",
            help="make this account, one the file names as a director, a director of the copy "
            "(repeat for each); the file alone makes no one a director",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}.") from error
        try:
            document = document_read(data)
            plan = tournament_import_plan(document=document)
            tournament = tournament_import(
                document=document, user=SYSTEM, directors=options["directors"]
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(
            f"Imported {tournament.name} as tournament {tournament.pk} "
            f"({tournament.get_absolute_url()}): {len(plan.events)} events, "
            f"{len(plan.matches)} matches, {plan.game_count} games; "
            f"{len(plan.players_new)} players added, {len(plan.players_matched)} matched."
        )
        directors = sorted(tournament.directors.values_list("username", flat=True))
        others = sorted({u.get_username() for u in plan.directors} - set(directors))
        if directors:
            self.stdout.write("Directors: " + ", ".join(directors) + ".")
        if others:
            self.stdout.write(
                "Named as directors by the file, not made directors: "
                + ", ".join(others)
                + " (give --director USERNAME to make one)."
            )
        if plan.directors_missing:
            self.stdout.write(
                "No account here for the directors "
                + ", ".join(plan.directors_missing)
                + ": add them in the admin."
            )
