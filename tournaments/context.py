"""Template context: whether the visitor may change things (computed once a request)."""

from .permissions import is_director


def director(request):
    return {"is_director": is_director(request.user) if hasattr(request, "user") else False}
