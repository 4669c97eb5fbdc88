"""A result's fields can no longer contradict each other (constraints), and results are
protected from deletion (PROTECT)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    dependencies = [("matches", "0007_results_hold_together")]

    operations = [
        migrations.AlterField(
            model_name="dispute",
            name="decision",
            field=models.CharField(
                blank=True,
                choices=[("log", "the log stands")],
                max_length=300,
                verbose_name="decision",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=Q(status="walkover", walkover_winner__isnull=False)
                | (~Q(status="walkover") & Q(walkover_winner__isnull=True)),
                name="match_walkover_has_a_winner",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=Q(final_score_a__isnull=True) | Q(status="finished"),
                name="match_final_score_only_when_finished",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=Q(final_score_a__isnull=True)
                | Q(final_score_a=models.F("length"), final_score_b__lt=models.F("length"))
                | Q(final_score_b=models.F("length"), final_score_a__lt=models.F("length")),
                name="match_final_score_reaches_the_length_once",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=Q(status="finished", finished_at__isnull=False)
                | (~Q(status="finished") & Q(finished_at__isnull=True)),
                name="match_finished_when_it_has_a_time",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="games",
                to="matches.match",
            ),
        ),
        migrations.AlterField(
            model_name="boardgame",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="board_games",
                to="matches.match",
            ),
        ),
        migrations.AlterField(
            model_name="dispute",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="disputes",
                to="matches.match",
            ),
        ),
    ]
