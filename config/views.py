"""The page django-axes shows when it refuses a sign-in (settings.AXES_LOCKOUT_CALLABLE)."""

import datetime

from django.conf import settings
from django.shortcuts import render


def locked_out(request, original_response=None, credentials=None):
    """Too many wrong passwords for this username from this address: say so, and for how long."""
    minutes = settings.AXES_COOLOFF_TIME // datetime.timedelta(minutes=1)
    context = {"failures": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    return render(request, "registration/locked_out.html", context, status=429)
