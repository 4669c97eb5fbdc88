#!/usr/bin/env python3
"""Django's command line for Crawford."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as refused:  # a setting missing: say which, not a traceback
        sys.exit(f"manage.py: {refused}")
