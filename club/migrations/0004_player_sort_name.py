"""Players sorted as people read their names: a stored key, accents and case folded.

The key is filled here for every player already registered, with the same folding the
model uses on save (:func:`rules.text.folded`, standard library only, stable across
releases of the site: a migration that imports it reads the same as the model writes).
"""

from django.db import migrations, models

from rules.text import folded

KEY_LENGTH = 255


def fill_sort_names(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    players = list(Player.objects.only("pk", "name"))
    for player in players:
        player.sort_name = folded(player.name)[:KEY_LENGTH]
    Player.objects.bulk_update(players, ["sort_name"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0003_imported_history_kept_uploads"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="sort_name",
            field=models.CharField(
                default="",
                editable=False,
                max_length=KEY_LENGTH,
                verbose_name="name sorted as read",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_sort_names, migrations.RunPython.noop, elidable=False),
        migrations.AlterModelOptions(
            name="player",
            options={
                "ordering": ["sort_name", "name", "id"],
                "verbose_name": "player",
                "verbose_name_plural": "players",
            },
        ),
    ]
