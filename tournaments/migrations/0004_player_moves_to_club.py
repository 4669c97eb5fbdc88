"""The Player model now lives in the club app (its table was renamed there): only Django's
record of the models changes here; no data moves."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_player_user"),
        ("club", "0001_initial"),
        ("matches", "0005_players_from_club"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="entry",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="club.player",
                        verbose_name="player",
                    ),
                ),
                migrations.AlterField(
                    model_name="bye",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="byes",
                        to="club.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="ratingchange",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="club.player",
                    ),
                ),
                migrations.DeleteModel(name="Player"),
            ],
            database_operations=[],
        ),
    ]
