"""Worker tokens: a machine's right to play the arena's games over HTTP (`divercite-arena
worker`), created and revoked by the administrator. Only the token's digest is kept; a
revoked token's workers lose their games after the lease (their posts are refused)."""

from __future__ import annotations

import secrets
from typing import Optional, Tuple

from django.core.exceptions import ValidationError
from django.utils import timezone

from .models import NAME, WorkerToken, token_digest


def add(name: str) -> Tuple[WorkerToken, str]:
    """A new worker token named `name` (a machine, a cluster) and its secret, shown once."""
    if not NAME.fullmatch(name):
        raise ValidationError({"name": [f"{name!r}: letters, digits, '_', '.' or '-', at most "
                                        "40, a letter or a digit first"]})
    if WorkerToken.objects.filter(name=name).exists():
        raise ValidationError({"name": [f"a worker token named {name} exists (revoke it, or "
                                        "choose another name)"]})
    token = "-"
    while token.startswith("-"):  # a command line would take it for an option
        token = secrets.token_urlsafe(24)
    return WorkerToken.objects.create(name=name, token_digest=token_digest(token)), token


def revoke(name: str) -> WorkerToken:
    """Revokes the token named `name`; ValidationError if there is none or it is revoked."""
    worker = WorkerToken.objects.filter(name=name).first()
    if worker is None:
        raise ValidationError({"name": [f"no worker token named {name}"]})
    if worker.revoked is not None:
        raise ValidationError({"name": [f"{name} was revoked on {worker.revoked:%Y-%m-%d %H:%M}"]})
    worker.revoked = timezone.now()
    worker.save(update_fields=["revoked"])
    return worker


def worker_of_token(token: str) -> Optional[WorkerToken]:
    """The valid (not revoked) worker token `token` is, else None."""
    if not token:
        return None
    return WorkerToken.objects.filter(token_digest=token_digest(token),
                                      revoked__isnull=True).first()
