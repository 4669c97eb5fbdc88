"""A match's players are now the club app's (the same rows: only the model moved)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0004_board_games_and_disputes"),
        ("club", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="match",
                    name=name,
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name=f"matches_as_{name[-1]}",
                        to="club.player",
                        verbose_name=label,
                    ),
                )
                for name, label in (("player_a", "player"), ("player_b", "opponent"))
            ],
            database_operations=[],
        ),
    ]
