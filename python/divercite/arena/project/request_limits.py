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
many in each), then 429 with Retry-After; requests with a valid token (a team's, a worker's,
a staff user's) or a logged-in user, and the static files, are not counted.

Logins (throttled_login, around both login pages): while core.logins throttles the address
or the name sent, the page answers 429 with Retry-After without checking the password.

An address is the connection's, but for `serve --production`, whose connections come from
the proxy on this machine: there the proxy's last X-Forwarded-For address (client_address).
An IPv6 address counts by its /64, what one machine is given."""

from __future__ import annotations

import math
import time
from functools import wraps
from typing import Optional, Tuple

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils import timezone

from ..agent_files import uploads
from ..api.team_views import token_of
from ..core import staff_tokens, teams, worker_tokens
from ..core.logins import client_address, counted_address, login_wait
from ..core.models import Entry, WorkerToken

ANONYMOUS_BODY_BYTES = 8 << 10  # a login form is a few hundred bytes
AUTHENTICATED_BODY_BYTES = 64 << 10  # a challenge, a logout, a form of the pages
STAFF_BODY_BYTES = 1 << 20  # an admin form, with the ids of a bulk action
WORKER_BODY_BYTES = 8 << 20  # a game's record, its live lines (settings.py's DATA_UPLOAD_...)
MULTIPART_BYTES = 64 << 10  # an upload's multipart framing and form fields
RATE_WINDOW_SECONDS = 60
RATES = "request_limits"  # settings.CACHES' alias: counts kept apart from the rendered pages
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

def token_holder(request):
    """The team (models.Entry), the worker (models.WorkerToken) or the staff user (User) whose
    valid token the request carries, else None; looked up once a request."""
    if not hasattr(request, "_arena_token_holder"):
        token = token_of(request)
        request._arena_token_holder = (teams.team_of_token(token) or
                                       worker_tokens.worker_of_token(token) or
                                       staff_tokens.staff_of_token(token)) if token else None
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
