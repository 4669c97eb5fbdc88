"""The audit trail moves to the club app, where every app records its changes.

Each old entry keeps its time, who, and its facts; its free-text action becomes a
code with parameters, so it reads as a sentence in the visitor's language.
"""

import re

from django.db import migrations

GAME_FACTS = {"game": "number", "winner": "winner", "cube": "cube", "result": "outcome"}


def _game(facts):
    if not facts:
        return facts
    moved = {new: facts.get(old) for old, new in GAME_FACTS.items()}
    moved["points"] = facts.get("points")
    return moved


def _result(facts):
    """Old result facts ({"status", "final score", "walkover winner"}) as the new ones."""
    if not facts:
        return None
    if facts.get("status") == "walkover" and facts.get("walkover winner"):
        return {"walkover": facts["walkover winner"]}
    score = _score(facts.get("final score"))
    if score:
        return {"score_a": score[0], "score_b": score[1]}
    return None


def _score(text):
    found = re.fullmatch(r"(\d+)-(\d+)", text or "")
    return (int(found[1]), int(found[2])) if found else None


def forwards(apps, schema_editor):
    Old = apps.get_model("matches", "AuditEntry")
    New = apps.get_model("club", "AuditEntry")
    Match = apps.get_model("matches", "Match")
    ContentType = apps.get_model("contenttypes", "ContentType")
    kind, _ = ContentType.objects.get_or_create(app_label="matches", model="match")
    matches = {m.pk: m for m in Match.objects.select_related("player_a", "player_b", "event")}
    rows = []
    for old in Old.objects.select_related("user").order_by("at", "id"):
        match = matches[old.match_id]
        before, after, params = old.before, old.after, {}
        action = old.action
        if action == "match created":
            code = "match.created"
            params = {"a": match.player_a.name, "b": match.player_b.name, "length": match.length}
        elif action in ("game recorded", "game corrected"):
            code = "game.recorded" if action == "game recorded" else "game.corrected"
            before, after = _game(before), _game(after)
            params = {"number": (after or {}).get("number")}
        elif action == "final score recorded":
            code = "result.final_score"
            score = _score((after or {}).get("final score"))
            params = {"score_a": score[0], "score_b": score[1]} if score else {}
            before, after = _result(before), _result(after)
        elif action == "walkover":
            code = "result.walkover"
            params = {"winner": (after or {}).get("walkover winner")}
            before, after = _result(before), _result(after)
        elif action == "board game started":
            code = "board.started"
            params = {"number": (after or {}).get("game")}
        elif action == "dispute opened":
            code = "dispute.opened"
            params = {"dispute": (after or {}).get("dispute")}
        elif action == "score sheets entered":
            code = "dispute.sheets"
            params = {"sheets": (after or {}).get("sheets")}
        elif action == "dispute decided":
            code = "dispute.decided"
            count = re.search(r"(\d+)", (after or {}).get("decision", ""))
            params = {"changed": int(count[1]) if count else 0}
        elif action == "match file imported":
            code = "match.imported"
            params = {"games": (after or {}).get("games")}
        elif action == "later match changed":
            code = "place.changed"
            params = {
                "key": (after or {}).get("match"),
                "before": (before or {}).get("players"),
                "after": (after or {}).get("players"),
            }
        else:
            code, params = "legacy", {"action": action}
        user = old.user
        name = (user.get_full_name() if hasattr(user, "get_full_name") else "") if user else ""
        if user is not None and not name:
            name = " ".join(p for p in (user.first_name, user.last_name) if p) or user.username
        rows.append(
            New(
                at=old.at,
                user=user,
                user_name=name,
                code=code,
                params=params,
                before=before,
                after=after,
                subject_type=kind,
                subject_id=match.pk,
                match_id=match.pk,
                tournament_id=match.event.tournament_id if match.event_id else None,
                dispute_id=old.dispute_id,
            )
        )
    New.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0005_players_from_club"),
        ("club", "0001_initial"),
        ("tournaments", "0003_player_user"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False),
        migrations.DeleteModel(name="AuditEntry"),
    ]
