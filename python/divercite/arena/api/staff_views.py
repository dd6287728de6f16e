"""The staff's API: the arena's state (core/staff_status.py), the same as the staff's page
(/staff/) shows. `Authorization: Token STAFF_TOKEN` (divercite-arena staff add | token), or a
staff user logged in on the pages; 403 for anyone else (a team's token, a worker's, none).

    GET /api/status   {"now", "queue": [...], "workers": {"serve", "remote"}, "games": {...},
                       "storage": {...}}"""

from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from ..core import staff_status
from .team_views import error, only, staff_user


@only("GET")
@never_cache
def status(request):
    if staff_user(request) is None:
        return error(403, "the arena's status is the staff's: send a staff token "
                          "(`Authorization: Token TOKEN`; divercite-arena staff add | token "
                          "makes one) or log in as staff")
    return JsonResponse(staff_status.compute())
