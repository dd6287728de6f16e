"""Failed logins counted and throttled (models.FailedLogin): after arena.json's
failed_logins_allowed failures in LOGIN_WINDOW from one address or for one name, a login is
refused until enough of them have left the window (0: no limit). project.request_limits
answers those with 429 (throttled_login); audit.py collapses the anonymous ones.

An address is the connection's, but for `serve --production`, whose connections come from
the proxy on this machine: there the proxy's last X-Forwarded-For address (client_address).
An IPv6 address counts by its /64, what one machine is given."""

from __future__ import annotations

import dataclasses
import ipaddress
from datetime import datetime, timedelta
from typing import Optional, Tuple

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.utils import timezone

from .models import FailedLogin

LOGIN_WINDOW = timedelta(minutes=15)
CLEANUP_EVERY = 50  # failed logins recorded between two deletions of those out of the window


# Who asks.

def client_address(request) -> str:
    """The address a request came from. Under --production the connection is the proxy's
    on this machine (docs/arena.md, Deployment: gunicorn reached by it alone): the client's is
    the last address of X-Forwarded-For, the one the proxy appended ($proxy_add_x_forwarded_for;
    whatever a client wrote comes before it). A connection from elsewhere is not the proxy's,
    and its X-Forwarded-For is the client's own words: not read."""
    remote = request.META.get("REMOTE_ADDR") or ""
    if settings.PRODUCTION and _loopback(remote):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        if _ip(forwarded) is not None:
            return forwarded
    return remote


def _ip(text: str):
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _loopback(text: str) -> bool:
    address = _ip(text)
    return address is not None and address.is_loopback


def counted_address(address: str) -> str:
    """What the limits count an address as: itself, or an IPv6 address's /64 (a machine is
    given a /64, and could take a new address for each request)."""
    parsed = _ip(address)
    if parsed is not None and parsed.version == 6 and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return address


# Failures.

@dataclasses.dataclass
class LoginFailures:
    """A failed login as the throttle counted it: the failures in the window from its address
    and for its name (this one included), the first of them, and whether this one started
    the throttle (and until when it lasts)."""

    address: str
    name: str
    from_address: int
    for_name: int
    since: datetime
    throttled_until: Optional[datetime]

    def in_words(self) -> str:
        """"10 failures from 192.0.2.9 since 14:02Z: ..." for the audit log."""
        counted, where = ((self.from_address, f"from {self.address}")
                          if self.from_address >= self.for_name
                          else (self.for_name, "for this name"))
        said = f"{counted} failures {where} since {self.since:%H:%M}Z"
        if self.throttled_until is not None:
            said += f": logins refused until {self.throttled_until:%H:%M}Z"
        return said


def _failures(address: str = None, name: str = None):
    recent = FailedLogin.objects.filter(when__gt=timezone.now() - LOGIN_WINDOW)
    return recent.filter(address=address) if address is not None else recent.filter(
        username=name)


def _throttled_until(failures, allowed: int) -> Optional[datetime]:
    """When `failures` (those of the window from an address or for a name) are fewer than
    `allowed` again; None if they are already."""
    newest = list(failures.order_by("-when").values_list("when", flat=True)[:allowed])
    if len(newest) < allowed:
        return None
    return newest[-1] + LOGIN_WINDOW


def _sent_name(request) -> str:
    return (request.POST.get("username") or "")[:150] if request.method == "POST" else ""


def login_wait(request) -> Optional[Tuple[datetime, str]]:
    """(until when, why) if the login of `request` is refused now; None if it is checked."""
    allowed = settings.ARENA.failed_logins_allowed
    if not allowed:
        return None
    address = counted_address(client_address(request))
    until = _throttled_until(_failures(address=address), allowed)
    if until is not None:
        return until, f"Too many failed logins from your address ({allowed} in " \
                      f"{LOGIN_WINDOW.seconds // 60} minutes)"
    name = _sent_name(request)
    if name:
        until = _throttled_until(_failures(name=name), allowed)
        if until is not None:
            return until, f"Too many failed logins for {name!r} ({allowed} in " \
                          f"{LOGIN_WINDOW.seconds // 60} minutes)"
    return None


def note_failed_login(request, name: str) -> Optional[LoginFailures]:
    """The failed login of `request` recorded (once, however often it is asked) and counted;
    None for a login without a request (none of the pages')."""
    if request is None:
        return None
    noted = getattr(request, "_arena_login_failures", None)
    if noted is not None:
        return noted
    address = counted_address(client_address(request))
    name = name[:150]
    made = FailedLogin.objects.create(address=address[:64], username=name)
    if made.pk % CLEANUP_EVERY == 0:
        FailedLogin.objects.filter(when__lte=timezone.now() - LOGIN_WINDOW).delete()
    by_address, by_name = _failures(address=address), _failures(name=name)
    from_address, for_name = by_address.count(), by_name.count()
    allowed = settings.ARENA.failed_logins_allowed
    started = None
    if allowed and (from_address == allowed or for_name == allowed):
        started = _throttled_until(by_address if from_address == allowed else by_name, allowed)
    first = (by_address if from_address >= for_name else by_name).order_by("when").first()
    noted = LoginFailures(address=client_address(request), name=name,
                          from_address=from_address, for_name=for_name,
                          since=first.when if first else made.when, throttled_until=started)
    request._arena_login_failures = noted
    return noted


def _login_failed(sender, credentials, request=None, **kwargs):
    from django.contrib.auth import get_user_model
    field = get_user_model().USERNAME_FIELD
    note_failed_login(request, str(credentials.get(field) or credentials.get("username") or ""))


user_login_failed.connect(_login_failed, dispatch_uid="divercite.arena.core.logins.failed")
