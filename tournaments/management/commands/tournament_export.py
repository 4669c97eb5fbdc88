"""Write a whole tournament as JSON, to move it to another site or keep a copy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.transfer import tournament_export_text


class Command(BaseCommand):
    help = (
        "Write tournament ID as a JSON file (everything needed to rebuild it, the players' "
        "emails and phones included): to FILE, or to the standard output."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the tournament's number (in its address)")
        parser.add_argument("--output", "-o", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["id"]).first()
        if tournament is None:
            raise CommandError(f"There is no tournament {options['id']}.")
        try:
            text = tournament_export_text(tournament=tournament)
        except ValidationError as refused:
            raise CommandError(" ".join(refused.messages)) from None
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
            self.stderr.write(f"{tournament.name} written to {options['output']}.")
        else:
            self.stdout.write(text, ending="")
