"""The staff's tokens. A staff user's token is, as a team's, its password on the pages (and
the admin's) and its key for the API, where it reads what the staff read (GET /api/status,
a tournament's CSV, every game's whole reason); made on the command line (`divercite-arena
staff add | token`), shown once, only its digest kept (models.StaffToken)."""

from __future__ import annotations

from typing import Optional, Tuple

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .models import NAME, Entry, StaffToken, token_digest
from .teams import new_token


def add(name: str) -> Tuple[User, str]:
    """A new staff user named `name` (a superuser: the arena has one staff role, the admin
    pages' whole) and its token; ValidationError (on `name`) if the name is taken or
    malformed."""
    if not NAME.fullmatch(name):
        raise ValidationError({"name": [f"{name!r}: letters, digits, '_', '.' or '-', at most "
                                        "40, a letter or a digit first"]})
    if User.objects.filter(username=name).exists() or Entry.objects.filter(name=name).exists():
        raise ValidationError({"name": [f"{name} is taken (by a staff user, a team or a house "
                                        "opponent)"]})
    token = new_token()
    with transaction.atomic():
        user = User.objects.create_superuser(name, email="", password=token)
        StaffToken.objects.create(user=user, token_digest=token_digest(token),
                                  issued=timezone.now())
    return user, token


def reset(name: str) -> Tuple[User, str]:
    """A new token for the staff user `name` (the administrator `init` made too), which becomes
    its password as well: its old token and password stop working at once. ValidationError (on
    `name`) for no such staff user."""
    user = User.objects.filter(username=name, is_staff=True).first()
    if user is None:
        raise ValidationError({"name": [f"no staff user named {name}"]})
    token = new_token()
    with transaction.atomic():
        user.set_password(token)
        user.save(update_fields=["password"])
        StaffToken.objects.update_or_create(
            user=user, defaults={"token_digest": token_digest(token), "issued": timezone.now()})
    return user, token


def staff_of_token(token: str) -> Optional[User]:
    """The active staff user whose token `token` is, else None."""
    if not token:
        return None
    held = (StaffToken.objects.select_related("user")
            .filter(token_digest=token_digest(token), user__is_staff=True, user__is_active=True)
            .first())
    return held.user if held is not None else None
