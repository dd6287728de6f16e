"""What one request may cost the arena before its sender is known (issue 55, "an outsider"):
the size of its body, how often an address reads without logging in, how often it may fail
to log in. Each refusal says in words what is taken and when to come back.

Bodies (RequestBodies, the middleware after Django's authentication: it answers before any
view, or CsrfViewMiddleware's look at a form, reads a byte of the body):

    a team's upload: POST /api/agents with its token, /upload/ logged in   upload_bytes()
    a worker token's posts (/api/worker/...): a record, live lines           8 MB
    a staff user's posts on the admin pages                                  1 MB
    any other request with a valid token or a login                          64 KB
    an anonymous one (no valid token, not logged in)                         8 KB

A body over its cap (by its Content-Length) is answered 413, one without a Content-Length
(chunked) 411: JSON {"error": ...} under /api/, a line of text elsewhere. Neither is read:
the server closes the connection after the answer (server.py for the built-in server,
wsgi.py for gunicorn), so no body of an anonymous request is spooled beyond a few KB.

Anonymous requests (AnonymousRequests, after it): at most arena.json's
anonymous_requests_per_minute from one address in a minute (a fixed window, counted in this
process's cache: under gunicorn each process counts its own, so an address may make that
many in each), then 429 with Retry-After; requests with a valid token (a team's, a worker's)
or a logged-in user, and the static files, are not counted.

Logins (throttled_login, around both login pages): after arena.json's failed_logins_allowed
failures in LOGIN_WINDOW from one address or for one name (models.FailedLogin), the page
answers 429 with Retry-After without checking the password, until enough of them have left
the window. 0 in either setting: no limit.

An address is the connection's, but for `serve --production`, whose connections come from
the proxy on this machine: there the proxy's last X-Forwarded-For address (client_address).
An IPv6 address counts by its /64, what one machine is given."""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import time
from datetime import datetime, timedelta
from functools import wraps
from typing import Optional, Tuple

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import caches
from django.http import HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils import timezone

from . import teams, uploads, worker_tokens
from .api import token_of
from .models import Entry, FailedLogin, WorkerToken

ANONYMOUS_BODY_BYTES = 8 << 10  # a login form is a few hundred bytes
AUTHENTICATED_BODY_BYTES = 64 << 10  # a challenge, a logout, a form of the pages
STAFF_BODY_BYTES = 1 << 20  # an admin form, with the ids of a bulk action
WORKER_BODY_BYTES = 8 << 20  # a game's record, its live lines (settings.py's DATA_UPLOAD_...)
MULTIPART_BYTES = 64 << 10  # an upload's multipart framing and form fields
LOGIN_WINDOW = timedelta(minutes=15)
RATE_WINDOW_SECONDS = 60
RATES = "request_limits"  # settings.CACHES' alias: counts kept apart from the rendered pages
CLEANUP_EVERY = 50  # failed logins recorded between two deletions of those out of the window
# The WSGI environment's mark of an answer that left the body unread: its connection is
# closed, not drained for the next request (server.py, wsgi.py); so is one whose body was
# declared larger than DRAINED_BYTES, which an answer before this middleware's (a redirect,
# a host refused) leaves unread too.
BODY_LEFT_UNREAD = "divercite.arena.body_left_unread"
DRAINED_BYTES = 64 << 10


def close_after(environ) -> bool:
    """Whether the connection of a request (its WSGI environment, answered) is closed rather
    than its body's rest read for the next request."""
    try:
        declared = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return True
    return bool(environ.get(BODY_LEFT_UNREAD) or environ.get("HTTP_TRANSFER_ENCODING")
                or declared > DRAINED_BYTES)


def upload_bytes() -> int:
    """The largest body of a team's upload: the file's limit (read now, as it may be
    changed) and its multipart framing."""
    return uploads.MAX_UPLOAD_BYTES + MULTIPART_BYTES


def in_bytes(size: int) -> str:
    """A size in words: "8 KB", "20.1 MB", "3.0 GB"."""
    for unit, shift in (("GB", 30), ("MB", 20), ("KB", 10)):
        if size >= 1 << shift:
            value = size / (1 << shift)
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{size} bytes"


def _answer(request, status: int, reason: str, retry_after: Optional[int] = None):
    """A refusal as the API writes one (JSON) under /api/, a line of text elsewhere."""
    if request.path.startswith("/api/"):
        answer = JsonResponse({"error": reason}, status=status)
    else:
        answer = HttpResponse(reason + "\n", status=status,
                              content_type="text/plain; charset=utf-8")
    if retry_after is not None:
        answer["Retry-After"] = str(retry_after)
    return answer


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


def token_holder(request):
    """The team (models.Entry) or the worker (models.WorkerToken) whose valid token the
    request carries, else None; looked up once a request."""
    if not hasattr(request, "_arena_token_holder"):
        token = token_of(request)
        request._arena_token_holder = (teams.team_of_token(token) or
                                       worker_tokens.worker_of_token(token)) if token else None
    return request._arena_token_holder


def anonymous(request) -> bool:
    """Neither a valid token nor a logged-in user."""
    return token_holder(request) is None and not request.user.is_authenticated


# Bodies.

def _view_name(request) -> str:
    try:
        return resolve(request.path_info).view_name
    except Resolver404:
        return ""


def body_cap(request) -> Tuple[int, str]:
    """The most bytes the body of `request` may hold, and what the arena takes in words."""
    holder = token_holder(request)
    user = request.user
    view = _view_name(request)
    upload = f"an agent: at most {in_bytes(uploads.MAX_UPLOAD_BYTES)}"
    if view == "api:agents" and isinstance(holder, Entry):
        return upload_bytes(), upload
    if view == "arena:upload" and user.is_authenticated and \
            Entry.objects.filter(user=user, kind=Entry.TEAM).exists():
        return upload_bytes(), upload
    if view.startswith("api:worker-") and isinstance(holder, WorkerToken):
        return WORKER_BODY_BYTES, f"a worker's post: at most {in_bytes(WORKER_BODY_BYTES)}"
    if view.startswith("admin:") and user.is_authenticated and user.is_staff:
        return STAFF_BODY_BYTES, f"an admin page's form: at most {in_bytes(STAFF_BODY_BYTES)}"
    if holder is not None or user.is_authenticated:
        return AUTHENTICATED_BODY_BYTES, f"at most {in_bytes(AUTHENTICATED_BODY_BYTES)} here"
    return ANONYMOUS_BODY_BYTES, (
        f"at most {in_bytes(ANONYMOUS_BODY_BYTES)} without a valid token or a login (a team "
        f"uploads its agent, at most {in_bytes(uploads.MAX_UPLOAD_BYTES)}, with its token or "
        "logged in)")


class RequestBodies:
    """Django's middleware refusing a body over its sender's cap (the module's docstring) by
    its Content-Length, before anything reads it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refused = self.refusal(request)
        if refused is not None:
            request.META[BODY_LEFT_UNREAD] = True
            return refused
        return self.get_response(request)

    @staticmethod
    def refusal(request):
        if request.META.get("HTTP_TRANSFER_ENCODING"):
            return _answer(request, 411, "Send the body with a Content-Length header: the "
                                         "arena takes no chunked body (Transfer-Encoding).")
        given = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(given)
        except ValueError:
            length = -1
        if length < 0:
            return _answer(request, 400, f"Content-Length {given!r} is not a number of bytes.")
        if length <= ANONYMOUS_BODY_BYTES:  # anyone's: nobody need be looked up
            return None
        cap, taken = body_cap(request)
        if length > cap:
            return _answer(request, 413, f"The body of this request is {in_bytes(length)}; "
                                         f"the arena takes {taken}.")
        return None


# Anonymous requests.

def _window() -> Tuple[int, int]:
    """The current minute's number, and the seconds left in it."""
    now = time.time()
    return int(now // RATE_WINDOW_SECONDS), \
        math.ceil(RATE_WINDOW_SECONDS - now % RATE_WINDOW_SECONDS)


class AnonymousRequests:
    """Django's middleware answering 429 to an address past anonymous_requests_per_minute
    requests without a token or a login this minute (the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        per_minute = settings.ARENA.anonymous_requests_per_minute
        if per_minute and not request.path.startswith(settings.STATIC_URL) and anonymous(request):
            window, left = _window()
            key = f"anonymous:{counted_address(client_address(request))}:{window}"
            rates = caches[RATES]
            rates.add(key, 0, RATE_WINDOW_SECONDS * 2)
            try:
                made = rates.incr(key)
            except ValueError:  # evicted between the two: this request starts it again
                rates.set(key, 1, RATE_WINDOW_SECONDS * 2)
                made = 1
            if made > per_minute:
                return _answer(request, 429, f"More than {per_minute} requests a minute from "
                                             f"your address without logging in: try again in "
                                             f"{left} s, or log in (a team, with its name and "
                                             f"token), or send your team's token.", left)
        return self.get_response(request)


# Logins.

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


def throttled_login(view):
    """A login page's view, answered 429 without looking at the password while its address,
    or the name sent, is throttled (the module's docstring)."""
    @wraps(view)
    def checked(request, *args, **kwargs):
        wait = login_wait(request)
        if wait is None:
            return view(request, *args, **kwargs)
        until, why = wait
        seconds = max(1, math.ceil((until - timezone.now()).total_seconds()))
        return _answer(request, 429, f"{why}: try again after {until:%H:%M} UTC, in "
                                     f"{math.ceil(seconds / 60)} minute"
                                     f"{'s' if seconds > 60 else ''}.", seconds)
    return checked


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


user_login_failed.connect(_login_failed, dispatch_uid="divercite.arena.request_limits.failed")
