"""Each player's country, typed as free text until now ("Italia", "Schweiz", "italy"),
written as its ISO 3166-1 alpha-2 code ("IT", "CH") before the column becomes a
django-countries field (0006).

Text read as a country (a code, or a name in English, Italian, German or French:
:func:`club.countries.country_code`) becomes its code. Text that names no country is not
lost: the country is left empty, an audit entry of the player keeps what was typed (the
player's history says "“Atlantis” could not be read as a country"), and the migration
prints each such player, so the directors can set it. Every change is in the audit trail,
as the site's own (no account).
"""

from django.db import migrations

from club.countries import country_code


def write_codes(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    AuditEntry = apps.get_model("club", "AuditEntry")
    ContentType = apps.get_model("contenttypes", "ContentType")
    players = [p for p in Player.objects.exclude(country="").only("pk", "name", "country")]
    if not players:
        return
    subject_type, _made = ContentType.objects.get_or_create(app_label="club", model="player")
    changed, entries = [], []
    for player in players:
        typed = player.country
        code = country_code(typed)
        if code == typed:
            continue
        player.country = code or ""
        changed.append(player)
        entries.append(
            AuditEntry(
                code="player.country_coded",
                params={"name": player.name, "typed": typed, "code": player.country},
                before={"country": typed},
                after={"country": player.country},
                subject_type=subject_type,
                subject_id=player.pk,
            )
        )
        if code is None:
            print(
                f"\n  player #{player.pk} {player.name}: the country “{typed}” is no country "
                "known; left empty, the text kept in the player's audit trail",
                end="",
            )
    Player.objects.bulk_update(changed, ["country"], batch_size=500)
    AuditEntry.objects.bulk_create(entries, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0004_player_sort_name"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(write_codes, migrations.RunPython.noop)]
