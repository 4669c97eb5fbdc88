"""An event's name as the director gave it; the names the site made (a cut knockout's
"Swiss – last 4", a format's name for an event left unnamed) are no longer stored in the
words of the director who made them: the site makes them again, in each reader's language
(``Event.name``)."""

from django.db import migrations, models

# the words the site used when it stored them, in the languages it speaks (frozen here: the
# catalogue may change its words later, these rows do not)
CUT = ("{event} – last {count}", "{event} – fase finale a {count}")
FORMATS = {
    "single": ("single elimination", "eliminazione diretta"),
    "consolation": (
        "single elimination with a consolation for round 1 losers",
        "eliminazione diretta con consolazione per gli sconfitti del primo turno",
    ),
    "progressive": (
        "single elimination with a progressive consolation",
        "eliminazione diretta con consolazione progressiva",
    ),
    "double": ("double elimination", "doppia eliminazione"),
    "last_chance": (
        "last chance (knockout for players already out)",
        "last chance (eliminazione diretta per chi è già stato eliminato)",
    ),
    "swiss": ("Swiss", "sistema svizzero"),
    "round_robin": ("round robin pools", "gironi all’italiana"),
}


def forget_made_names(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    events = {e.pk: e for e in Event.objects.order_by("id")}
    made = []
    for event in events.values():  # decided on the names as stored, then cleared
        parent = events.get(event.parent_id)
        cut = set()
        if parent is not None and parent.cut:
            cut = {words.format(event=parent.given_name, count=parent.cut) for words in CUT}
        if event.given_name in cut or event.given_name in FORMATS.get(event.format, ()):
            made.append(event)
    for event in made:
        event.given_name = ""
    Event.objects.bulk_update(made, ["given_name"])


def keep_made_names(apps, schema_editor):
    """Back: every event has a stored name again, in English (the field may not be empty)."""
    Event = apps.get_model("tournaments", "Event")
    events = {e.pk: e for e in Event.objects.order_by("id")}

    def name(event) -> str:
        if event.given_name:
            return event.given_name
        parent = events.get(event.parent_id)
        if parent is not None and parent.cut:
            return CUT[0].format(event=name(parent), count=parent.cut)
        return FORMATS[event.format][0]

    named = {pk: name(e) for pk, e in events.items()}
    for pk, event in events.items():
        event.given_name = named[pk]
    Event.objects.bulk_update(list(events.values()), ["given_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_double_elimination_final_last"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="event", name="event_has_a_name"),
        migrations.RenameField(model_name="event", old_name="name", new_name="given_name"),
        migrations.AlterField(
            model_name="event",
            name="given_name",
            field=models.CharField(blank=True, max_length=120, verbose_name="name"),
        ),
        migrations.RunPython(forget_made_names, keep_made_names),
    ]
