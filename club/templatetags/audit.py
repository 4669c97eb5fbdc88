"""``{{ entry|sentence }}``: an audit entry as a sentence in the visitor's language;
``{{ user|actor }}``: a person as the audit names them (:func:`club.audit.actor_name`)."""

from django import template

from club.actors import Actor
from club.audit import actor_name, audit_sentence
from club.models import AuditEntry

register = template.Library()


@register.filter
def sentence(entry: AuditEntry) -> str:
    return audit_sentence(entry)


@register.filter
def actor(user: Actor | None) -> str:
    """None (nobody recorded, e.g. a dispute decided by the site) is named "", as is the site."""
    return actor_name(user)
