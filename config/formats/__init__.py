"""The site's own date formats, over Django's (FORMAT_MODULE_PATH).

Italian writes months and weekdays in lower case ("23 novembre 2026"); Django's Italian
catalogue capitalises them. The month names below are marked for translation in the context
the "E" format character uses ("alt. month"), so the site's catalogue carries them in lower
case and, coming first in LOCALE_PATHS, is the one used.
"""

from django.utils.translation import pgettext_lazy

MONTHS = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
