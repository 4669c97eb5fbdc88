"""The English reasons are gone once their codes are written (0005); a rated match is protected
from deletion. A migration of its own: PostgreSQL alters no table with changes pending."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_places_and_reason_codes")]

    operations = [
        migrations.RemoveField(model_name="bye", name="reason"),
        migrations.AlterField(
            model_name="ratingchange",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="matches.match",
            ),
        ),
    ]
