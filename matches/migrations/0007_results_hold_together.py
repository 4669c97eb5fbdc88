"""A match no longer knows its tournament (tournaments.Place does); a version number guards
corrections; the director may allow dice rolled at the table; results that contradict
themselves are put right and dispute decisions become codes, before 0008 adds the
constraints (a migration of its own: PostgreSQL alters no table with changes pending)."""

import re

from django.db import migrations, models
from django.db.models import Q
from django.utils import timezone


def decisions(apps, schema_editor):
    """A decision was an English sentence: it becomes its code and the count it gave."""
    Dispute = apps.get_model("matches", "Dispute")
    for dispute in Dispute.objects.exclude(decision=""):
        count = re.search(r"(\d+)", dispute.decision)
        dispute.decision, dispute.corrected = "log", int(count[1]) if count else 0
        dispute.save(update_fields=["decision", "corrected"])


def repair(apps, schema_editor):
    """Rows the old services could leave contradictory: the last write (a final score put on
    top of a walkover) wins, and a finished match has the time it finished."""
    Match = apps.get_model("matches", "Match")
    Match.objects.filter(final_score_a__isnull=False).update(
        status="finished", walkover_winner=None
    )
    Match.objects.filter(status="walkover", walkover_winner__isnull=True).update(status="scheduled")
    Match.objects.filter(~Q(status="walkover"), walkover_winner__isnull=False).update(
        walkover_winner=None
    )
    Match.objects.filter(status="finished", finished_at__isnull=True).update(
        finished_at=timezone.now()
    )
    Match.objects.filter(~Q(status="finished"), finished_at__isnull=False).update(finished_at=None)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0006_audit_moves_to_club"),
        ("tournaments", "0005_places_and_reason_codes"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="match", name="match_bracket_place_once"),
        migrations.RemoveConstraint(model_name="match", name="match_round_only_in_an_event"),
        migrations.RemoveField(model_name="match", name="bracket_key"),
        migrations.RemoveField(model_name="match", name="event"),
        migrations.RemoveField(model_name="match", name="pairing_reason"),
        migrations.RemoveField(model_name="match", name="round"),
        migrations.AddField(
            model_name="match",
            name="version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="match",
            name="physical_dice",
            field=models.BooleanField(
                default=False, verbose_name="players may enter dice rolled at the table"
            ),
        ),
        migrations.AddField(
            model_name="dispute",
            name="corrected",
            field=models.PositiveSmallIntegerField(
                default=0, verbose_name="games corrected or added"
            ),
        ),
        # the data last: PostgreSQL alters no table with changes still pending
        migrations.RunPython(repair, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(decisions, migrations.RunPython.noop, elidable=False),
    ]
