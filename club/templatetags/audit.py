"""``{{ entry|sentence }}``: an audit entry as a sentence in the visitor's language."""

from django import template

from club.audit import audit_sentence
from club.models import AuditEntry

register = template.Library()


@register.filter
def sentence(entry: AuditEntry) -> str:
    return audit_sentence(entry)
