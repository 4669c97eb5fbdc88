"""A match's place in a tournament moves from the match to the tournament (Place), and the
reasons for Swiss pairings and byes become codes with parameters (rendered in the visitor's
language where shown) instead of English text with names patched in."""

import re

import django.db.models.deletion
from django.db import migrations, models

WINS = r"(\d+) wins?"


def reason_code(text):
    """The code and parameters an English reason of the old pairing code stands for."""
    text = text or ""
    if not text:
        return "", {}
    if text.startswith("rematch"):
        return "rematch", {}
    if text.startswith("bye, everyone"):
        return "bye-again", {}
    if text.startswith("bye"):
        return "bye", {}
    found = re.fullmatch(r".* floats down from " + WINS + " to meet .* on " + WINS, text)
    if found:
        return "float", {"from": int(found[1]), "to": int(found[2])}
    found = re.fullmatch(r"same score group \(" + WINS + r"\)", text)
    if found:
        return "same-group", {"wins": int(found[1])}
    if text.startswith("same score group"):  # a number overwritten by a name (the old defect)
        return "same-group", {}
    return "legacy", {"text": text}


def forwards(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Place = apps.get_model("tournaments", "Place")
    Bye = apps.get_model("tournaments", "Bye")
    places = []
    for match in Match.objects.filter(event__isnull=False).order_by("id"):
        code, params = reason_code(match.pairing_reason)
        places.append(
            Place(
                match_id=match.pk,
                event_id=match.event_id,
                round=match.round or 1,
                bracket_key=match.bracket_key,
                reason_code=code,
                reason_params=params,
            )
        )
    Place.objects.bulk_create(places, batch_size=500)
    for bye in Bye.objects.all():
        bye.reason_code, bye.reason_params = reason_code(bye.reason)
        bye.save(update_fields=["reason_code", "reason_params"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_player_moves_to_club"),
        ("matches", "0006_audit_moves_to_club"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="physical_dice",
            field=models.BooleanField(
                default=False, verbose_name="players may enter dice rolled at the table"
            ),
        ),
        migrations.CreateModel(
            name="Place",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round", models.PositiveSmallIntegerField(verbose_name="round")),
                (
                    "bracket_key",
                    models.CharField(blank=True, max_length=12, verbose_name="place"),
                ),
                ("reason_code", models.CharField(blank=True, max_length=40)),
                ("reason_params", models.JSONField(blank=True, default=dict)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="places",
                        to="tournaments.event",
                    ),
                ),
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="place",
                        to="matches.match",
                    ),
                ),
            ],
            options={
                "ordering": ["event", "round", "id"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("bracket_key", ""), _negated=True),
                        fields=("event", "bracket_key"),
                        name="place_bracket_key_once",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("round__gte", 1)), name="place_round_positive"
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="bye",
            name="reason_code",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.AddField(
            model_name="bye",
            name="reason_params",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False),
    ]
