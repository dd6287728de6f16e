"""Teams and their tokens, uploads and challenges: what a team does, for the API and the
pages alike (each checks who asks; this module does what is asked)."""

from __future__ import annotations

import math
import secrets
import shutil
from datetime import timedelta
from typing import List, Optional, Tuple

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from . import house as house_entries
from .models import NAME, Challenge, Entry, Game, Version, token_digest
from .uploads import AGENT_FILE, UploadError, read_upload, unpack

UPLOAD_WINDOW = timedelta(hours=1)  # upload_limit_per_hour's hour


class Refused(ValueError):
    """A team's request the arena refuses; the message says why."""


class UploadLimited(UploadError):
    """An upload over the team's limit an hour; `retry_after`: the seconds until the team's
    uploads of the last hour are below the limit again (HTTP's Retry-After)."""

    def __init__(self, reason: str, retry_after: int):
        super().__init__(reason)
        self.retry_after = retry_after


def add_team(name: str) -> Tuple[Entry, str]:
    """A new team and its token (its API key, and its password on the pages)."""
    entry = Entry(name=name, kind=Entry.TEAM)
    if Entry.objects.filter(name=name).exists() or User.objects.filter(username=name).exists():
        raise ValidationError({"name": [f"{name} is taken (by a team, a house opponent or "
                                        "the administrator)"]})
    entry.full_clean()  # the name's pattern
    if not NAME.fullmatch(name):  # the validator's '$' lets a newline at the end through
        raise ValidationError({"name": [f"{name!r}: letters, digits, '_', '.' or '-', a "
                                        "letter or a digit first"]})
    token = secrets.token_urlsafe(18)
    with transaction.atomic():
        user = User.objects.create_user(username=name, password=token)
        entry.user = user
        entry.token_digest = token_digest(token)
        entry.save()
    return entry, token


def team_of_token(token: str) -> Optional[Entry]:
    if not token:
        return None
    return Entry.objects.filter(kind=Entry.TEAM, token_digest=token_digest(token)).first()


def ensure_house() -> None:
    """The house opponents and the checker, each with its one version (made once)."""
    for name, kind in [(key, Entry.HOUSE) for key in house_entries.HOUSE] + \
            [(house_entries.CHECKER, Entry.CHECKER)]:
        entry, _ = Entry.objects.get_or_create(name=name, defaults={"kind": kind})
        if not entry.versions.exists():
            Version.objects.create(entry=entry, number=1, status=Version.READY,
                                   house=name if kind == Entry.HOUSE else "")


def check_upload_limit(team: Entry, per_hour: int) -> None:
    """UploadLimited if `team` has uploaded `per_hour` versions or more in the last hour
    (every version counts, the administrator's on its behalf too; 0: no limit). Called in
    the transaction that creates the version, the team's row locked."""
    if not per_hour:
        return
    now = timezone.now()
    counted = sorted(team.versions.filter(created__gt=now - UPLOAD_WINDOW)
                     .values_list("created", flat=True))
    if len(counted) < per_hour:
        return
    # Below the limit again once all but per_hour - 1 of them have left the hour.
    frees = counted[len(counted) - per_hour] + UPLOAD_WINDOW
    wait = max(1, math.ceil((frees - now).total_seconds()))
    minutes, seconds = divmod(wait, 60)
    raise UploadLimited(
        f"{per_hour} uploads an hour at most, and your team has sent {len(counted)} in the "
        f"last hour: the next is taken in {f'{minutes} min ' if minutes else ''}{seconds} s",
        wait)


def upload(team: Entry, name: str, data: bytes, per_hour: int = 0) -> Version:
    """A new version of `team` from an uploaded file, unpacked and queued for its check game
    against the course's random player; UploadError (the reason) if refused, UploadLimited
    if the team has uploaded `per_hour` versions in the last hour (0, the administrator's
    uploads: no limit)."""
    files = read_upload(name, data)
    checker = Entry.objects.get(kind=Entry.CHECKER).versions.get()
    for attempt in range(3):  # two uploads of a team at once may take the same number
        try:
            with transaction.atomic():
                # Uploads of a team one at a time, counted and numbered (on PostgreSQL the
                # team's row locked; SQLite's transactions hold the database's write lock).
                Entry.objects.select_for_update().get(pk=team.pk)
                check_upload_limit(team, per_hour)
                number = (team.versions.aggregate(last=Max("number"))["last"] or 0) + 1
                version = Version.objects.create(entry=team, number=number,
                                                 upload_name=name[:200], agent_file=AGENT_FILE)
                # A folder there is a leftover of a transaction rolled back after it was
                # written (SQLite gives its id again): no committed version owns it.
                shutil.rmtree(version.folder, ignore_errors=True)
                unpack(files, version.folder)  # a failure here undoes the version
                Game.objects.create(p1=version, p2=checker, purpose=Game.CHECK)
            break
        except IntegrityError:
            if attempt == 2:
                raise
    return version


def opponent_version(name: str) -> Version:
    entry = Entry.objects.filter(name=name, kind__in=(Entry.TEAM, Entry.HOUSE)).first()
    if entry is None:
        raise Refused(f"no team or house opponent named {name!r}")
    version = entry.current_version()
    if version is None:
        raise Refused(f"{name} has no ready version yet")
    return version


def challenge(team: Entry, opponent: str, games) -> Tuple[Challenge, List[Game]]:
    """`games` games of the team's current version against `opponent` (a house opponent's or
    a team's name), colours alternating, queued ahead of the ladder's, out of its quota."""
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise Refused("games: a whole number, 1 or more")
    mine = team.current_version()
    if mine is None:
        raise Refused("your team has no ready version yet: upload one and wait for its check")
    theirs = opponent_version(opponent)
    if theirs.entry_id == team.pk:
        raise Refused("a team cannot challenge itself")
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=team.pk)
        if games > entry.challenge_quota:
            raise Refused(f"{games} games asked, {entry.challenge_quota} left of your quota "
                          "(the administrator sets it)")
        entry.challenge_quota -= games
        entry.save(update_fields=["challenge_quota"])
        made = Challenge.objects.create(team=team, opponent=theirs, games=games)
        queued = [Game.objects.create(p1=mine if i % 2 == 0 else theirs,
                                      p2=theirs if i % 2 == 0 else mine,
                                      purpose=Game.CHALLENGE, challenge=made)
                  for i in range(games)]
    return made, queued
