"""``{% qr url %}``: a QR code of a link, as inline SVG (segno), for a card or a poster.

The SVG has no size of its own (only a viewBox): the page's CSS sizes it, so it prints
sharp at any size. No script and no image request: the strict Content-Security-Policy
allows it as it is.
"""

from __future__ import annotations

import segno
from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def qr(url: str, label: str = "") -> str:
    """The QR code of ``url``; ``label`` names it for screen readers."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", lineclass="qr-line", light="#fff"
    )
    # segno's own output (it escapes nothing of ours: the URL is encoded as modules, not text)
    return format_html(
        '<figure class="qr" role="img" aria-label="{}">{}</figure>', label, mark_safe(svg)
    )
