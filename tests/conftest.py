"""Shared test settings: where the project's shared material lives, hypothesis profiles."""

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_addoption(parser):
    parser.addoption(
        "--reference",
        action="append",
        default=[],
        help="extra gnubg legal-play JSONL files (made by scripts/gnubg_legal.py) to check against",
    )
