"""club.cache: the cache down costs a warning now and then, never a failure (issue 23.2)."""

from __future__ import annotations

import logging

import pytest
from django.test import override_settings

from club import cache as module
from club.cache import cache, where


@pytest.fixture
def clock(monkeypatch):
    """The cache's clock, moved by hand: ``clock.now += 60``."""

    class Clock:
        now = 1000.0

    found = Clock()
    monkeypatch.setattr(cache, "clock", lambda: found.now)
    return found


def said(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "club.cache"]


def test_reads_find_nothing_and_writes_keep_nothing_while_it_is_down(cache_down, clock):
    assert cache.get("a") is None and cache.get("a", []) == []
    assert cache.get_many(["a", "b"]) == {}
    assert cache.set("a", 1, 60) is None and cache.set_many({"a": 1}, 60) is None


def test_one_warning_then_another_only_after_the_quiet_interval(cache_down, clock, caplog):
    for _ in range(50):
        cache.get("a")
        clock.now += 1  # past the pause between tries: each call asks Redis
    assert len(said(caplog)) == 1 and "does not answer" in said(caplog)[0]
    clock.now += module.QUIET_SECONDS
    cache.get("a")
    assert len(said(caplog)) == 2
    assert "still does not answer" in said(caplog)[1] and "50 calls" in said(caplog)[1]


def test_after_a_failure_it_is_left_alone_for_a_moment_then_asked_again(
    cache_down, clock, monkeypatch
):
    asked = []
    real = module.caches.__getitem__
    monkeypatch.setattr(
        module,
        "caches",
        type("Caches", (), {"__getitem__": lambda s, k: asked.append(k) or real(k)})(),
    )
    cache.get("a")
    cache.get("b")
    assert len(asked) == 1  # the second call did not wait on Redis again
    clock.now += module.RETRY_SECONDS
    cache.get("c")
    assert len(asked) == 2


def test_a_line_when_it_answers_again(cache_down, clock, caplog):
    cache.set("a", 1, 60)
    clock.now += 90
    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    ):
        cache.set("a", 1, 60)
        assert cache.get("a") == 1
        assert said(caplog)[-1] == "The cache (LocMemCache) answers again, after 90 seconds."
        assert len(said(caplog)) == 2
        caplog.clear()
        with override_settings(
            CACHES={
                "default": {
                    "BACKEND": "django.core.cache.backends.redis.RedisCache",
                    "LOCATION": "redis://127.0.0.1:1/0",
                }
            }
        ):
            clock.now += 1
            cache.get("a")
        assert len(said(caplog)) == 1 and "does not answer" in said(caplog)[0]  # a new outage


@pytest.mark.parametrize(
    "location, shown",
    [
        ("redis://:secret@10.0.0.5:6380/2", "redis://10.0.0.5:6380/2"),
        ("redis://crawford:secret@cache.example.org/0", "redis://cache.example.org:6379/0"),
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
    ],
)
def test_the_warning_names_the_cache_never_its_password(location, shown):
    redis = "django.core.cache.backends.redis.RedisCache"
    with override_settings(CACHES={"default": {"BACKEND": redis, "LOCATION": location}}):
        assert where() == shown


def test_each_warning_is_one_line_at_warning(cache_down, clock, caplog):
    caplog.set_level(logging.DEBUG)
    cache.get("a")
    (record,) = [r for r in caplog.records if r.name == "club.cache"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "\n" not in record.getMessage()
