"""Settings, read from the environment so one code base serves a laptop and a server.

DATABASE_URL   default: a SQLite file in the project folder (postgres://... on a server)
SECRET_KEY     a development default that refuses to start with DEBUG off
DEBUG          "1" (default, a director's laptop) or "0" (a server)
ALLOWED_HOSTS  comma-separated, default "127.0.0.1,localhost"
CONN_MAX_AGE   seconds a database connection is kept (default 0; 60 suits a server)
DICE_SEED      unset (default): the board's dice are secure random; set, they repeat (demos)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = os.environ.get("DEBUG", "1").lower() in ("1", "true", "yes", "on")
DEVELOPMENT_KEY = "crawford-development-key-not-for-servers"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_KEY)
if not DEBUG and SECRET_KEY == DEVELOPMENT_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is the development default: set SECRET_KEY in the environment to run "
        "with DEBUG off (e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
    )
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip() for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if origin
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_filters",
    # the site's own apps, from the bottom up: each imports only those above it in this list
    "club",
    "matches",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "club.context.permissions",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),  # e.g. 60 on a server
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # several directors on one laptop's site: wait for a write lock instead of failing at once
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Rome")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "table"}

# Dice for the site's board come from the operating system's secure source; a seed makes them
# repeat (the test settings set one, so a browser test can play a whole game the same way twice).
DICE_SEED = os.environ.get("DICE_SEED") or None

# The group whose members (with staff) may change anything; everyone else reads.
DIRECTORS_GROUP = "Directors"

if not DEBUG:
    SESSION_COOKIE_SECURE = os.environ.get("SECURE_COOKIES", "1") == "1"
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
