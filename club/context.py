"""Template context: what the visitor may create (the "New ..." buttons), once a request."""

from .policy import can_create


def permissions(request):
    user = getattr(request, "user", None)
    return {"may_create": can_create(user) if user is not None else False}
