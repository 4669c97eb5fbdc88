"""Django's makemessages, also finding the rules engine's plural templates.

The engine (rules/, no Django) marks its templates with ``gettext_noop`` (a keyword
xgettext already knows) and ``ngettext_noop(singular, plural)``, which it does not:
this tells it, so ``manage.py makemessages -l it`` extracts every message of the site.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
