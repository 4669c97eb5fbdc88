"""The players move here from the tournaments app (the same table, renamed), and the audit
trail starts here (the matches app moves its entries in, see matches 0006)."""

from decimal import Decimal

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("tournaments", "0003_player_user"),  # the players' table exists, with its account link
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        (
                            "club",
                            models.CharField(blank=True, max_length=120, verbose_name="club"),
                        ),
                        (
                            "country",
                            models.CharField(blank=True, max_length=60, verbose_name="country"),
                        ),
                        (
                            "rating",
                            models.DecimalField(
                                decimal_places=2,
                                default=Decimal("1500.00"),
                                editable=False,
                                max_digits=7,
                                verbose_name="rating",
                            ),
                        ),
                        (
                            "experience",
                            models.PositiveIntegerField(
                                default=0, editable=False, verbose_name="experience"
                            ),
                        ),
                        (
                            "email",
                            models.EmailField(blank=True, max_length=254, verbose_name="email"),
                        ),
                        (
                            "phone",
                            models.CharField(blank=True, max_length=40, verbose_name="phone"),
                        ),
                        (
                            "user",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="player",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="account",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "player",
                        "verbose_name_plural": "players",
                        "ordering": ["name", "id"],
                        "db_table": "tournaments_player",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("name", ""), _negated=True),
                                name="player_has_a_name",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="player", table=None),  # tournaments_player -> club_player
        migrations.CreateModel(
            name="AuditEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "at",
                    models.DateTimeField(
                        db_index=True, default=django.utils.timezone.now, verbose_name="when"
                    ),
                ),
                ("user_name", models.CharField(blank=True, max_length=150, verbose_name="who")),
                ("code", models.CharField(max_length=40, verbose_name="change")),
                ("params", models.JSONField(blank=True, default=dict)),
                ("before", models.JSONField(blank=True, null=True, verbose_name="before")),
                ("after", models.JSONField(blank=True, null=True, verbose_name="after")),
                ("subject_id", models.PositiveBigIntegerField()),
                ("match_id", models.PositiveBigIntegerField(blank=True, db_index=True, null=True)),
                (
                    "tournament_id",
                    models.PositiveBigIntegerField(blank=True, db_index=True, null=True),
                ),
                ("dispute_id", models.PositiveBigIntegerField(blank=True, null=True)),
                (
                    "subject_type",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="contenttypes.contenttype",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="who",
                    ),
                ),
            ],
            options={
                "verbose_name": "audit entry",
                "verbose_name_plural": "audit trail",
                "ordering": ["-at", "-id"],
                "indexes": [
                    models.Index(fields=["subject_type", "subject_id"], name="audit_subject")
                ],
            },
        ),
    ]
