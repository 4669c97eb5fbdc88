"""/api/v1/: the operations, the schema (openapi.json), the docs, and JSON for every refusal.

Django-ninja answers a method an address does not take with a bare 405 and an unknown address
falls to the site's HTML 404: here both answer JSON in plain words, like the rest of the API.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.urls import URLPattern, path, re_path
from django.views.decorators.csrf import csrf_exempt

from tournaments.transfer_views import transfer_schema

from .api import View, api, error_response, guarded

app_name = api.urls_namespace


def refusal(method: str, allowed: str) -> JsonResponse:
    response = error_response(
        405,
        "method_not_allowed",
        f"The API only reads: {method} is not answered here, only {allowed}.",
    )
    response["Allow"] = allowed
    return response


def json_405(view: View) -> View:
    """Ninja's bare 405 (a method the address does not take) as the API's JSON refusal."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        if response.status_code == 405:
            return refusal(request.method or "", response["Allow"])
        return response

    return answer


def _pattern(pattern: URLPattern) -> URLPattern:
    """An operation's address answering the API's 405; the schema's and the docs' (which
    django-ninja answers whatever the method) GET only."""
    view = json_405(pattern.callback)
    if pattern.name in ("openapi-json", "openapi-view"):
        view = read_only(pattern.callback)
    return URLPattern(pattern.pattern, view, pattern.default_args, pattern.name)


def read_only(view: View) -> View:
    """A view of this module's own: GET only, anything else refused with the API's 405."""

    @csrf_exempt
    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "GET":
            return refusal(request.method or "", "GET")
        return view(request, *args, **kwargs)

    return answer


def index(request: HttpRequest) -> JsonResponse:
    """What the API holds: the version and where each resource is."""
    root = request.build_absolute_uri("/api/v1/")
    return JsonResponse(
        {
            "version": api.version,
            "openapi": root + "openapi.json",
            "docs": root + "docs",
            "resources": {name: root + name for name in ("tournaments", "matches", "players")},
        }
    )


def nothing_here(request: HttpRequest, rest: str = "") -> JsonResponse:
    return error_response(
        404, "not_found", f"Nothing at {request.path}: see /api/v1/docs for the addresses."
    )


patterns, _app, _namespace = api.urls
urlpatterns = [
    path("", read_only(guarded(index, static=True)), name="api-root"),
    # ninja's operations are each a URLPattern (path()), never an include
    *[_pattern(p) for p in patterns if isinstance(p, URLPattern) and p.name != "api-root"],
    # the tournament file's JSON Schema, beside the API's (docs/api.md)
    path("transfer.schema.json", read_only(transfer_schema), name="transfer-schema"),
    re_path(r"^(?P<rest>[\s\S]*)$", read_only(nothing_here)),  # a line break too
]
