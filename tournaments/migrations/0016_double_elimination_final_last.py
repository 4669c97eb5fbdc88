"""A double elimination's final is played after the losers' draw's last round: its place
moves from round 1 (and the final played again from round 2) to the rounds after every other.

The losers' draw's last round always has a match of its own when the final is made (its
winner is the final's second player), so the final's round is one after the event's latest.
"""

from django.db import migrations
from django.db.models import Max

FINALS = {"F1-1": 1, "F2-1": 2}  # the final, the final played again: after the last round


def forwards(apps, schema_editor):
    Place = apps.get_model("tournaments", "Place")
    finals = Place.objects.filter(event__format="double", bracket_key__in=FINALS)
    for event_id in set(finals.values_list("event_id", flat=True)):
        others = Place.objects.filter(event_id=event_id).exclude(bracket_key__in=FINALS)
        last = others.aggregate(last=Max("round"))["last"] or 0
        for place in finals.filter(event_id=event_id):
            place.round = last + FINALS[place.bracket_key]
            place.save(update_fields=["round"])


def backwards(apps, schema_editor):
    Place = apps.get_model("tournaments", "Place")
    for key, number in FINALS.items():
        Place.objects.filter(event__format="double", bracket_key=key).update(round=number)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_tournament_uuid"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
