"""Site-wide pages: django-axes' refused sign-in, and a request too large or malformed."""

import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.formats import number_format


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """Too many wrong passwords for this username from this address: say so, and for how long."""
    minutes = settings.AXES_COOLOFF_TIME // datetime.timedelta(minutes=1)
    context = {"failures": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    return render(request, "registration/locked_out.html", context, status=429)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django refused the request (handler400): one too large to read is answered 413 in words.

    A match file's own pages refuse a large upload on their form (matches.views); this
    is for a large form sent anywhere else, which Django refuses before any view runs.
    """
    if isinstance(exception, RequestDataTooBig):
        kilobytes = number_format(settings.MATCH_FILE_MAX_BYTES // 1000, force_grouping=True)
        return render(request, "413.html", {"limit": kilobytes}, status=413)
    return render(request, "400.html", status=400)
