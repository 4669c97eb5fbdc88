"""Settings, read from the environment so one code base serves a laptop and a server.

DATABASE_URL   default: a SQLite file in the project folder (postgres://... on a server)
DEBUG          off unless set to "1" (make run and make venue's set-up set it for themselves,
               a director's laptop; a server leaves it unset or "0")
SECRET_KEY     a development default that refuses to start with DEBUG off
ALLOWED_HOSTS  comma-separated, default "127.0.0.1,localhost"; SITE_URL's host is added
CSRF_TRUSTED_ORIGINS  comma-separated origins (https://results.example.org), default none
CONN_MAX_AGE   seconds a database connection is kept (default 0; 60 suits a server); when
               kept, each is checked before reuse, so a dropped connection is not a 500
DICE_SEED      unset (default): the board's dice are secure random; set, they repeat (demos)
TIME_ZONE      default "Europe/Rome"

Match files and kept replays (docs/deployment.md, Running on a server)
MATCH_FILE_MAX_KB  the largest match file (.mat) the import and dispute pages take, in kB
               (default 1000, 1 MB: a 25-point match with every move is about 30 kB)
ARCHIVE_MAX_MB the largest .zip of match files the "Import match files" page takes, in MB
               (default 20: some thousand matches); each file inside is held to
               MATCH_FILE_MAX_KB as it says it unpacks, or the archive is refused
REDIS_URL      the cache every worker shares (replays, rate counts, live pages' content),
               e.g. redis://127.0.0.1:6379/0; unset (default): each process's memory (one
               process, a laptop). When it does not answer the site goes on without it
               (club.cache: rate limits fail open, nothing is kept) and logs one warning

Background work (docs/deployment.md, Jobs)
CELERY_BROKER_URL  the job queue, e.g. redis://127.0.0.1:6379/1: jobs go to Celery workers
               (celery -A config.celery worker); unset (default): each web process runs them
               in a thread of its own, one at a time (a laptop, no Redis)
CELERY_KEY_PREFIX  what the queue's keys in Redis start with (default "crawford:")
JOBS_BACKEND   celery, thread (the two above), or eager and held (the tests)
JOBS_KEEP_DAYS finished background work is forgotten after this many days (default 30)

Logging and mail (docs/deployment.md, Running on a server)
LOG_LEVEL      what goes to stderr: WARNING (default) and up; ERROR, or INFO for more
ADMINS         who is mailed each server error: "Ann <ann@example.org>,bob@example.org"
ADMIN_MAILS_PER_HOUR  at most this many error mails an hour from each worker process
               (default 10); the log keeps every error, the next mail says how many were held
EMAIL_HOST     the SMTP server; unset (default): mails are printed on the console instead
EMAIL_PORT     default 587 (25 with EMAIL_USE_TLS=0)
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD   the SMTP account, if it needs one
EMAIL_USE_TLS  "1" (default, STARTTLS) or "0"
DEFAULT_FROM_EMAIL  the sender of password resets, players' emails and error mails, default
               crawford@localhost
EMAIL_BACKEND  a Django mail backend's dotted path, to override the two above (e.g.
               django.core.mail.backends.locmem.EmailBackend); the tests use locmem
SITE_URL       the address phones open (http://192.168.1.20:8000 at a venue, the server's
               https:// name): in the emails' links, the QR codes and the check-in poster;
               its host is added to ALLOWED_HOSTS. Unset (default): emails link to
               http://127.0.0.1:8000, QR codes to the address the page was asked at.
               `manage.py venue` (make venue) sets it to this machine's LAN address
INVITATION_DAYS  how long a player's invitation link works, in days (default 14)
EXPORT_MAX_ROWS  the most rows one CSV download (matches, players, ratings, standings) holds
               (default 10000); past it the file ends with a line saying to narrow the filters

The JSON API (docs/api.md)
API_RATE_ANONYMOUS  how often one address may call /api/v1/ without signing in (default 60/min;
               a number, "/", and sec, min, hour or day)
API_RATE_SIGNED_IN  how often one signed-in account may (default 600/min)
API_PROXIES    how many proxies in front of the site append to X-Forwarded-For (default 0: the
               address is the connection's own; a forged header changes nothing)

Sign-in and sign-up
SIGN_UP_RATE   how many accounts one address may make asking to enter an event (default
               10/hour: a club's players on one wifi, not a script's hundreds; read like the
               API's rates, behind API_PROXIES too); with the cache down it is not counted
LOGIN_COOLOFF_MINUTES  after 5 wrong passwords for one username from one address, sign-in
               is refused for this long (default 15); each further try starts it again

HTTPS (all off by default; docs/deployment.md, Running on a server, has the values for a server)
SECURE_SSL_REDIRECT    "1": plain http:// requests are redirected to https://
SECURE_PROXY_SSL_HEADER  the header a TLS proxy in front sets, e.g. X-Forwarded-Proto
SECURE_HSTS_SECONDS    how long browsers must use https:// only (31536000: a year)
SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD   "1": the same for every subdomain;
               and listed in the browsers' preload list (hstspreload.org)
SECURE_COOKIES "1" (default with DEBUG off): session and CSRF cookies over https:// only
"""

from __future__ import annotations

import datetime
import os
from email.utils import getaddresses
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

# Django's classes that its type stubs make generic (admin.ModelAdmin[Player], forms.ModelForm,
# ModelChoiceField...) subscriptable when the site runs too: the apps name their model for mypy
django_stubs_ext.monkeypatch()


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, "").strip() or default


def env_flag(name: str, default: bool) -> bool:
    """A yes/no setting: 1, true, yes, on or 0, false, no, off; anything else is refused."""
    value = env(name).lower()
    if not value:
        return default
    if value not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
        raise ImproperlyConfigured(f"{name} must be 1 or 0, not {value!r}")
    return value in ("1", "true", "yes", "on")


def env_int(name: str, default: int, minimum: int = 0) -> int:
    value = env(name)
    if not value:
        return default
    if not value.isdigit() or int(value) < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number from {minimum}, not {value!r}")
    return int(value)


DEBUG = env_flag("DEBUG", False)  # off unless the environment turns it on (make run does)
DEVELOPMENT_KEY = "crawford-development-key-not-for-servers"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_KEY)
if not DEBUG and SECRET_KEY == DEVELOPMENT_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is the development default: set SECRET_KEY in the environment to run "
        "with DEBUG off (e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(50))'), "
        "or DEBUG=1 on a laptop, as make run does"
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
    "django_countries",  # its countries' names in every language (club.countries)
    # the site's own apps, from the bottom up: each imports only those above it in this list
    "club",
    "jobs",  # long work on a job queue: the apps above register their kinds of work
    "matches",
    "money",  # money sessions and chouettes: tournaments shows a player's tables
    "tournaments",
    "api",  # the read-only JSON API, above them all
    "ninja",  # django-ninja's templates and its vendored Swagger UI (no CDN)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.EnglishFormatsMiddleware",  # en-GB dates for an en-GB browser
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
                "club.context.token_mark",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

CONN_MAX_AGE = env_int("CONN_MAX_AGE", 0)  # e.g. 60 on a server
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=CONN_MAX_AGE,
        # a kept connection the database has dropped (a restart) is replaced, not a 500
        conn_health_checks=CONN_MAX_AGE > 0,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # several directors on one laptop's site, and its background work in a thread: wait for
    # the write lock instead of failing at once. A transaction takes it when it begins
    # (IMMEDIATE): one that read first and wrote later would otherwise be refused "database is
    # locked" at once, without waiting, when another wrote meanwhile (tests/jobs/sqlite_laptop.py)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's four: not like the user name or email, at least 8 characters, not one of the 20,000
# commonest, not all digits (each refusal in the visitor's language, from Django's catalogue)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]  # Italian months in lower case
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

DJANGO_TABLES2_TEMPLATE = "tables/stacked.html"  # each cell names its column on a phone
DJANGO_TABLES2_TABLE_ATTRS = {"class": "table"}

# Dice for the site's board come from the operating system's secure source; a seed makes them
# repeat (the test settings set one, so a browser test can play a whole game the same way twice).
DICE_SEED = os.environ.get("DICE_SEED") or None

# The group whose members (with staff) may change anything; everyone else reads.
DIRECTORS_GROUP = "Directors"

# --- Downloads: a CSV is streamed a chunk of rows at a time (club.tables.table_export) and
# holds at most this many rows, so no request reads the whole history
EXPORT_MAX_ROWS = env_int("EXPORT_MAX_ROWS", 10_000, minimum=1)

# --- Match files: how large, and where their replays are kept ----------------------------------
# A match file over this is refused (413) with the limit in plain words; the reader also stops
# after the games a match's length allows (rules.matfile.games_allowed), so a replay is bounded.
MATCH_FILE_MAX_BYTES = env_int("MATCH_FILE_MAX_KB", 1000, minimum=1) * 1000
# A match-file page's whole request: the file, or its text carried to the confirmation (up to
# twice the bytes in UTF-8 when the file was Latin-1), and the form's few fields. A larger one
# is refused before Django reads it (matches.views.match_file_form).
MATCH_FILE_REQUEST_MAX_BYTES = 2 * MATCH_FILE_MAX_BYTES + 65_536
# An archive of match files (matches.archive): the upload, compressed. Each file inside is
# held to MATCH_FILE_MAX_BYTES by the size it declares, so a small archive cannot unpack to
# gigabytes.
ARCHIVE_MAX_BYTES = env_int("ARCHIVE_MAX_MB", 20, minimum=1) * 1_000_000
# Django's own limit on a form's fields (not its files), above what those pages take; a larger
# request anywhere gets the 413 page (config.views.bad_request), not a bare "Bad Request".
DATA_UPLOAD_MAX_MEMORY_SIZE = max(2_621_440, MATCH_FILE_REQUEST_MAX_BYTES)
# Each file's replay is kept (matches.matfiles): in Redis for every worker of a server,
# otherwise in this process's memory.
if env("REDIS_URL"):
    try:
        import redis  # noqa: F401  (Django's Redis cache needs it: pip install -e '.[server]')
    except ImportError as missing:
        raise ImproperlyConfigured(
            "REDIS_URL is set but the redis package is not installed: pip install -e '.[server]'"
        ) from missing
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env("REDIS_URL"),
            "KEY_PREFIX": "crawford",
            # a Redis that does not answer costs a second, then the site goes on without it
            # for a while (club.cache), never a page held until the network gives up
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


# --- Rate limits, counted in the cache above: the JSON API's (docs/api.md), the sign-up's ------
def env_rate(name: str, default: str) -> str:
    value = env(name, default).lower()
    count, _slash, period = value.partition("/")
    if not (count.isdigit() and int(count) >= 1 and period in ("sec", "min", "hour", "day")):
        raise ImproperlyConfigured(f"{name} must read like 60/min (sec, min, hour or day)")
    return f"{count}/{period}"


API_RATE_ANONYMOUS = env_rate("API_RATE_ANONYMOUS", "60/min")
API_RATE_SIGNED_IN = env_rate("API_RATE_SIGNED_IN", "600/min")
# accounts one address may make asking to enter an event (club.throttling), counted the same way
SIGN_UP_RATE = env_rate("SIGN_UP_RATE", "10/hour")
NINJA_NUM_PROXIES = env_int("API_PROXIES", 0)

# --- Background work (jobs): ratings after a correction, a season's exports, archives of .mat
# files, emails (docs/deployment.md, Jobs) ---------------------------------------------------
# CELERY_BROKER_URL set (redis://127.0.0.1:6379/1): jobs go to Celery workers through it
# (`celery -A config.celery worker`); unset, they run in a thread of each web process, one at a
# time (a laptop: `make run` needs no Redis). JOBS_BACKEND overrides: celery, thread, or eager
# (at once, in the request: the tests). CELERY_KEY_PREFIX (default "crawford:") starts the
# queue's keys in Redis
CELERY_BROKER_URL = env("CELERY_BROKER_URL")
JOBS_BACKEND = env("JOBS_BACKEND", "celery" if CELERY_BROKER_URL else "thread")
# finished work (every email, every correction's ratings) is forgotten after this many days
# (jobs.prune); a failed job stays while no later one of its kind succeeded
JOBS_KEEP_DAYS = env_int("JOBS_KEEP_DAYS", 30, minimum=1)
if JOBS_BACKEND not in ("celery", "thread", "eager", "held"):
    raise ImproperlyConfigured("JOBS_BACKEND must be celery, thread, eager or held")
if JOBS_BACKEND == "celery" and not CELERY_BROKER_URL:
    raise ImproperlyConfigured("JOBS_BACKEND=celery needs CELERY_BROKER_URL (redis://...)")
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-job leaves its message to another
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # long jobs: a worker takes one at a time
CELERY_TASK_IGNORE_RESULT = True  # the job's row is its result
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# a broker that does not answer costs a web request about a second, then the job runs in the
# web process instead (jobs.runner.job_dispatch), never a page held or a 500
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1,
    "socket_timeout": 2,
    # the queue's keys in Redis start with this, so two sites (or a site and its tests) may
    # share one Redis database without taking each other's jobs
    "global_keyprefix": env("CELERY_KEY_PREFIX", "crawford:"),
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5}

# --- Logging: what an operator reads ----------------------------------------------------------
# Warnings and errors go to stderr (gunicorn's or the service manager's log), each starting
# with one line of the time, the level, the logger and the message, e.g.
#   2026-11-22 21:04:05,120 ERROR django.request Internal Server Error: /matches/3/
# then the traceback. With DEBUG off a server error is also mailed to ADMINS, at most
# ADMIN_MAILS_PER_HOUR an hour from each process. A refused request (a 403, a host not in
# ALLOWED_HOSTS) is one line at WARNING, never mailed (config.logs).
LOG_LEVEL = env("LOG_LEVEL", "WARNING").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ImproperlyConfigured(f"LOG_LEVEL must be ERROR, WARNING or INFO, not {LOG_LEVEL!r}")
ADMIN_MAILS_PER_HOUR = env_int("ADMIN_MAILS_PER_HOUR", 10, minimum=1)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {
        "debug_off": {"()": "django.utils.log.RequireDebugFalse"},
        # a refused request (403, a bad Host header...) is one line, not a traceback
        "refusals": {"()": "config.logs.RefusalsInOneLine", "level": LOG_LEVEL},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["refusals"]},
        "mail_admins": {  # server errors only, at most ADMIN_MAILS_PER_HOUR
            "class": "config.logs.RateLimitedAdminEmailHandler",
            "level": "ERROR",
            "filters": ["debug_off"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr", "mail_admins"], "level": LOG_LEVEL, "propagate": False},
    },
}

# --- Mail: password resets, players' emails, and server errors to ADMINS ---------------------
if env("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env("EMAIL_HOST")
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", True)
    EMAIL_PORT = env_int("EMAIL_PORT", 587 if EMAIL_USE_TLS else 25, minimum=1)
    EMAIL_HOST_USER = env("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD")
    EMAIL_TIMEOUT = 20  # a mail server that does not answer does not hold a page forever
else:  # a laptop: mails are printed on the console that runs the site
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
if env("EMAIL_BACKEND"):
    EMAIL_BACKEND = env("EMAIL_BACKEND")
# the address phones open (docs/deployment.md, A laptop: at the venue): players' emails (a result to
# confirm, a dispute decided, a table ready), the invitation cards' and the check-in poster's QR
# codes. Unset: emails link to http://127.0.0.1:8000 and QR codes to the address the page was
# asked at. Its host is allowed (ALLOWED_HOSTS, above), so the address phones open answers.
SITE_URL = env("SITE_URL").rstrip("/")
if SITE_URL:
    _site_host = urlsplit(SITE_URL).hostname
    if urlsplit(SITE_URL).scheme not in ("http", "https") or not _site_host:
        raise ImproperlyConfigured(
            f"SITE_URL must be an address such as http://192.168.1.20:8000, not {SITE_URL!r}"
        )
    if _site_host not in ALLOWED_HOSTS and "*" not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_site_host)
INVITATION_DAYS = int(env("INVITATION_DAYS", "14"))  # how long a player's invitation link works
DEFAULT_FROM_EMAIL = SERVER_EMAIL = env("DEFAULT_FROM_EMAIL", "crawford@localhost")
EMAIL_SUBJECT_PREFIX = "[Crawford] "
ADMINS = [(name or address, address) for name, address in getaddresses([env("ADMINS")]) if address]
if not all("@" in address for _, address in ADMINS):
    raise ImproperlyConfigured(
        f"ADMINS: {env('ADMINS')!r} is not a list of email addresses "
        '(write e.g. ADMINS="Ann <ann@example.org>,bob@example.org")'
    )

# --- Sign-in: django-axes refuses a username after repeated wrong passwords from one address ----
INSTALLED_APPS += ["axes"]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: a locked-out sign-in stops here
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # this username from this address
AXES_RESET_ON_SUCCESS = True  # the right password forgets earlier slips
# the log names the username and address held back (no password)
AXES_SENSITIVE_PARAMETERS: list[str] = []
AXES_LOCKOUT_CALLABLE = "config.views.locked_out"  # the page in plain words

# --- HTTPS and security headers (docs/deployment.md: Running on a server, Security) ----------
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", False)
if env("SECURE_PROXY_SSL_HEADER"):  # e.g. X-Forwarded-Proto: https, set by the TLS proxy
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + env("SECURE_PROXY_SSL_HEADER").upper().replace("-", "_"),
        "https",
    )
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES", not DEBUG)

# Content-Security-Policy (django-csp): scripts, styles, fonts and requests from the site only,
# never inline (no <script>, <style>, on...= or style= in a page); images also as data: URLs;
# no framing; forms post to the site only; no <base> (which would move every relative address
# of a page elsewhere) and no plugins (<object>, <embed>), which the site never uses.
INSTALLED_APPS += ["csp"]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "img-src": [SELF, "data:"],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    },
}

# Outermost to innermost, these two last: axes, as it asks (it answers a sign-in it refused),
# inside the CSP middleware, so the policy also goes on axes' page.
MIDDLEWARE += ["csp.middleware.CSPMiddleware", "axes.middleware.AxesMiddleware"]
