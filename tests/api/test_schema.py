"""The API's field names and types are a contract: a snapshot of the OpenAPI schema pins them.

A change to a field (renamed, removed, retyped, a new code) breaks this test on purpose.
Clients rely on /api/v1/: either leave v1 as it is and add /api/v2/, or, for a change that
cannot break a client (a new field), update the snapshot deliberately:

    UPDATE_API_SNAPSHOT=1 .venv/bin/python -m pytest tests/api/test_schema.py
"""

import json
import os
from pathlib import Path

import pytest

SNAPSHOT = Path(__file__).with_name("schema_snapshot.json")


def kind(schema: dict) -> str:
    """A field's type in a few words: integer, string|null, array<GameOut>, enum[a,b]."""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return "|".join(kind(option) for option in schema["anyOf"])
    if "enum" in schema:
        return "enum[" + ",".join(str(v) for v in schema["enum"]) + "]"
    if "const" in schema:
        return f"enum[{schema['const']}]"
    if schema.get("type") == "array":
        return f"array<{kind(schema['items'])}>"
    name = schema.get("type", "any")
    return f"{name}:{schema['format']}" if "format" in schema else name


def shape(openapi: dict) -> dict:
    """Each resource's fields and their types; each address's parameters and answers."""
    components = {
        name: {field: kind(spec) for field, spec in schema.get("properties", {}).items()}
        | {"(required)": sorted(schema.get("required", []))}
        for name, schema in openapi["components"]["schemas"].items()
    }
    paths = {
        path: {
            "parameters": {p["name"]: kind(p["schema"]) for p in operation.get("parameters", [])},
            "answers": {
                status: kind(answer["content"]["application/json"]["schema"])
                for status, answer in operation["responses"].items()
            },
        }
        for path, methods in openapi["paths"].items()
        for operation in methods.values()
    }
    return {"paths": paths, "components": components}


@pytest.fixture
def served(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_fields_are_the_snapshot_s(served):
    now = shape(served)
    if os.environ.get("UPDATE_API_SNAPSHOT"):
        SNAPSHOT.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    pinned = json.loads(SNAPSHOT.read_text())
    for section in ("components", "paths"):
        for name in sorted(set(pinned[section]) | set(now[section])):
            assert now[section].get(name) == pinned[section].get(name), (
                f"The API's {section[:-1]} {name} changed: {pinned[section].get(name)} is now "
                f"{now[section].get(name)}. /api/v1/ is a contract: add /api/v2/ for a change "
                "that breaks clients, or update tests/api/schema_snapshot.json deliberately "
                "(UPDATE_API_SNAPSHOT=1; see this file's docstring)."
            )


def test_the_snapshot_names_every_resource(served):
    """The snapshot is not empty or stale: it holds each resource and its derived fields."""
    pinned = json.loads(SNAPSHOT.read_text())["components"]
    assert pinned["GameOut"]["crawford"] == "boolean"
    assert pinned["GameOut"]["score_after"] == "Score"
    assert pinned["PlayerOut"]["rating"] == "number"
    assert "email" not in pinned["PlayerOut"] and "phone" not in pinned["PlayerDetail"]
    assert pinned["MatchOut"]["status"] == "enum[scheduled,in_play,finished,walkover]"
    assert set(served["paths"]) == set(json.loads(SNAPSHOT.read_text())["paths"])
    assert served["info"]["version"] == "1"
