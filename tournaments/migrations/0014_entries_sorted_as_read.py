"""Entries listed as people read their players' names (club.Player.sort_name)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_player_reports"),
        ("club", "0004_player_sort_name"),  # entries sort by their player's sort key
    ]

    operations = [
        migrations.AlterModelOptions(
            name="entry",
            options={
                "ordering": ["event", "seed", "player__sort_name", "id"],
                "verbose_name": "entry",
                "verbose_name_plural": "entries",
            },
        ),
    ]
