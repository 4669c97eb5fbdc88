"""The queue's tests: their own kinds of work (kinds.py), counted afresh in each test."""

import pytest

from . import kinds


@pytest.fixture(autouse=True)
def entered_afresh():
    """A job's id may come again in the next test (a rolled-back table): its count starts at 0."""
    kinds.ENTERED.clear()
    yield
    kinds.ENTERED.clear()
