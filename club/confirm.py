"""A destructive action asks first: a page that says what will happen, and a button to do it.

The page works without JavaScript. The action's view renders it while the request does not
carry ``confirm=1`` (a GET, or the first POST of a form), and calls its service once it does;
the fields the director chose travel in hidden inputs, so nothing is asked twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@dataclass(frozen=True)
class Confirmation:
    title: str  # also the heading: "Withdraw Anna Rossi?"
    what: str  # the change, in a sentence
    button: str  # what the button does: "Withdraw Anna Rossi"
    action: str  # the URL the button posts to
    back: str  # where Cancel goes
    consequences: tuple[str, ...] = ()
    fields: tuple[tuple[str, Any], ...] = field(default=())
    undo: str = ""  # how it can be put right afterwards, if it can


def confirmed(request: HttpRequest) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "1"


def confirm_page(request: HttpRequest, confirmation: Confirmation) -> HttpResponse:
    return render(request, "confirm.html", {"confirm": confirmation})
