"""Every tournament gets a stable identity, written in its export and kept by an import
(issue 25.3). Django's way for a unique field on existing rows: added empty, each row given
its own UUID, then made unique and required."""

import uuid

from django.db import migrations, models


def identities_give(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for pk in Tournament.objects.values_list("pk", flat=True).iterator():
        Tournament.objects.filter(pk=pk).update(uuid=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_entries_sorted_as_read"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="uuid",
            field=models.UUIDField(editable=False, null=True, verbose_name="identity"),
        ),
        migrations.RunPython(identities_give, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="tournament",
            name="uuid",
            field=models.UUIDField(
                default=uuid.uuid4, editable=False, unique=True, verbose_name="identity"
            ),
        ),
    ]
