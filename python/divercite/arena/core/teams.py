"""Teams and their tokens, uploads and challenges: what a team does, for the API and the
pages alike (each checks who asks; this module does what is asked)."""

from __future__ import annotations

import math
import secrets
import shutil
from datetime import timedelta
from typing import List, Optional, Tuple

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from ..play import house as house_entries
from .. import wording
from . import storage
from .models import NAME, Challenge, Entry, Game, UploadAttempt, Version, token_digest
from ..agent_files.uploads import (AGENT_FILE, Caps, UploadError, check_size, read_upload, size_of,
                                   unpack)

UPLOAD_WINDOW = timedelta(hours=1)  # upload_limit_per_hour's hour


class RequestRefused(ValueError):
    """A team's request the arena refuses; the message says why."""


class UploadLimited(UploadError):
    """An upload over the team's limit an hour; `retry_after`: the seconds until the team's
    uploads of the last hour are below the limit again (HTTP's Retry-After)."""

    def __init__(self, reason: str, retry_after: int):
        super().__init__(reason)
        self.retry_after = retry_after


def check_new_name(name: str) -> None:
    """ValidationError (on `name`) unless `name` is free for a new team and well formed."""
    if Entry.objects.filter(name=name).exists() or User.objects.filter(username=name).exists():
        raise ValidationError({"name": [f"{name} is taken (by a team, a house opponent or "
                                        "a staff user)"]})
    Entry(name=name, kind=Entry.TEAM).full_clean()  # the name's pattern
    if not NAME.fullmatch(name):  # the validator's '$' lets a newline at the end through
        raise ValidationError({"name": [f"{name!r}: letters, digits, '_', '.' or '-', a "
                                        "letter or a digit first"]})


def new_token() -> str:
    """A new secret: 144 random bits, URL-safe, never starting with '-' (a command line would
    take it for an option)."""
    token = "-"
    while token.startswith("-"):
        token = secrets.token_urlsafe(18)
    return token


def add_team(name: str, entry: Optional[Entry] = None) -> Tuple[Entry, str]:
    """A new team and its token (its API key, and its password on the pages), shown once.
    `entry`: the team's unsaved Entry as a form made it (the admin's, with its quota), named
    `name`; by default a new one."""
    check_new_name(name)
    entry = entry if entry is not None else Entry(name=name)
    entry.name, entry.kind = name, Entry.TEAM
    token = new_token()
    with transaction.atomic():
        entry.user = User.objects.create_user(username=name, password=token)
        entry.token_digest = token_digest(token)
        entry.save()
    return entry, token


def reset_token(entry: Entry) -> str:
    """A new token for the team `entry`, shown once: the old one stops working at once as its
    API key and as its password (and the sessions logged in with it end: Django ties a
    session to the password). A team without a login (one made before the admin pages could
    add teams) gets one. ValidationError for an entry that is not a team."""
    if entry.kind != Entry.TEAM:
        raise ValidationError(f"{entry.name} is a {entry.kind} entry: only a team has a token")
    token = new_token()
    with transaction.atomic():
        user = entry.user
        if user is None:
            if User.objects.filter(username=entry.name).exists():
                raise ValidationError(f"{entry.name} has no login of its own, and the user "
                                      f"{entry.name} is someone else's")
            user = User.objects.create_user(username=entry.name, password=token)
        else:
            user.set_password(token)
            user.save(update_fields=["password"])
        Entry.objects.filter(pk=entry.pk).update(user=user, token_digest=token_digest(token))
    entry.user, entry.token_digest = user, token_digest(token)
    return token


def team_of_token(token: str) -> Optional[Entry]:
    if not token:
        return None
    return Entry.objects.filter(kind=Entry.TEAM, token_digest=token_digest(token)).first()


def ensure_house() -> None:
    """The house opponents and the checker, each with its one version (made once); a
    retired level's version, where an older arena has one, set aside (rejected, with the
    level that replaced it): it plays no more, its games stay."""
    playing = [key for key, level in house_entries.HOUSE.items() if not level.retired]
    for name, kind in [(key, Entry.HOUSE) for key in playing] + \
            [(house_entries.CHECKER, Entry.CHECKER)]:
        entry, _ = Entry.objects.get_or_create(name=name, defaults={"kind": kind})
        if not entry.versions.exists():
            Version.objects.create(entry=entry, number=1, status=Version.READY,
                                   house=name if kind == Entry.HOUSE else "")
    for name, level in house_entries.HOUSE.items():
        if level.retired:
            Version.objects.filter(entry__name=name, entry__kind=Entry.HOUSE,
                                   status=Version.READY).update(
                status=Version.REJECTED,
                reason=f"retired: {level.retired} plays in its place, as strong on any "
                       "worker and never out of time")


def check_upload_limit(team: Entry, per_hour: int) -> None:
    """UploadLimited if `team` has sent `per_hour` uploads or more in the last hour (every
    attempt counts, refused ones and the administrator's on its behalf too; 0: no limit).
    Called in the transaction that records the attempt, the team's row locked."""
    if not per_hour:
        return
    now = timezone.now()
    counted = sorted(team.upload_attempts.filter(when__gt=now - UPLOAD_WINDOW)
                     .values_list("when", flat=True))
    if len(counted) < per_hour:
        return
    # Below the limit again once all but per_hour - 1 of them have left the hour.
    frees = counted[len(counted) - per_hour] + UPLOAD_WINDOW
    wait = max(1, math.ceil((frees - now).total_seconds()))
    minutes, seconds = divmod(wait, 60)
    raise UploadLimited(
        f"{wording.counted(per_hour, 'upload')} an hour at most, and your team has sent "
        f"{len(counted)} in the "
        f"last hour: the next is taken in {f'{minutes} min ' if minutes else ''}{seconds} s",
        wait)


def count_attempt(team: Entry, per_hour: int) -> UploadAttempt:
    """The upload attempt recorded (committed at once, whatever becomes of the upload), or
    UploadLimited if the team is at its limit. Uploads of a team are counted one at a time:
    on PostgreSQL the team's row is locked; SQLite's transactions hold the database's write
    lock."""
    with transaction.atomic():
        Entry.objects.select_for_update().get(pk=team.pk)
        check_upload_limit(team, per_hour)
        return UploadAttempt.objects.create(team=team)


def check_storage(team: Entry, size: int) -> None:
    """UploadError if a version of `size` bytes would take the team past its storage."""
    quota = settings.ARENA.team_storage_mb << 20
    used = storage.used_bytes(team)
    if used + size > quota:
        raise UploadError(
            f"this version takes {size / (1 << 20):.1f} MB and your team's versions already "
            f"{used / (1 << 20):.1f} MB of the {quota >> 20} MB a team may keep on the arena; "
            "the files of versions superseded for "
            f"{settings.ARENA.retention_days:g} days are removed (a rejected version's at "
            "once), or ask the staff")


def supersede_checks(team: Entry, version: Version) -> None:
    """The team's older versions still waiting for their check (or in it) are not checked:
    one pending check a team, the newest. A queued check is dropped, one being played is
    stopped (its worker finds the game no longer its own)."""
    now = timezone.now()
    older = team.versions.filter(status=Version.CHECKING).exclude(pk=version.pk)
    for old in older:
        reason = f"superseded by version {version.number} before its check game ended"
        Version.objects.filter(pk=old.pk).update(status=Version.REJECTED, reason=reason)
        checks = Game.objects.filter(p1=old, purpose=Game.CHECK)
        checks.filter(status=Game.QUEUED).delete()
        checks.filter(status=Game.PLAYING).update(status=Game.FAILED, ended=now, reason=reason,
                                                  live="", lease_until=None)
        transaction.on_commit(lambda old=old: storage.remove_files(old))


def upload(team: Entry, name: str, sent, per_hour: int = 0) -> Version:
    """A new version of `team` from an uploaded file (its bytes, or a Django UploadedFile,
    whose size is checked before it is read), unpacked and queued for its check game against
    the course's random player; UploadError (the reason) if refused, UploadLimited if the team
    has sent `per_hour` uploads in the last hour (0, the administrator's uploads: no limit).
    Every call counts as an attempt, refused or not."""
    attempt = count_attempt(team, per_hour)
    try:
        if isinstance(sent, (bytes, bytearray)):
            data = bytes(sent)
        else:
            check_size(name, sent.size)
            data = sent.read()
        files = read_upload(name, data, Caps.of(settings.ARENA))
        del data
        version = _create_version(team, name, files)
    except UploadError as refused:
        UploadAttempt.objects.filter(pk=attempt.pk).update(refused=str(refused)[:2000])
        raise
    return version


def _create_version(team: Entry, name: str, files) -> Version:
    checker = Entry.objects.get(kind=Entry.CHECKER).versions.get()
    size = size_of(files)
    for attempt in range(3):  # two uploads of a team at once may take the same number
        try:
            with transaction.atomic():
                # Numbered one at a time (the team's row locked, as count_attempt does).
                Entry.objects.select_for_update().get(pk=team.pk)
                check_storage(team, size)
                number = (team.versions.aggregate(last=Max("number"))["last"] or 0) + 1
                version = Version.objects.create(entry=team, number=number,
                                                 upload_name=name[:200], agent_file=AGENT_FILE,
                                                 size=size)
                # A folder there is a leftover of a transaction rolled back after it was
                # written (SQLite gives its id again): no committed version owns it.
                shutil.rmtree(version.folder, ignore_errors=True)
                try:
                    unpack(files, version.folder)  # a failure here undoes the version
                except OSError as error:
                    raise UploadError(f"{name}: the arena could not write its files "
                                      f"({error.strerror})") from None
                Game.objects.create(p1=version, p2=checker, purpose=Game.CHECK)
                supersede_checks(team, version)
            break
        except IntegrityError:
            if attempt == 2:
                raise
    return version


def opponent_version(name: str) -> Version:
    entry = Entry.objects.filter(name=name, kind__in=(Entry.TEAM, Entry.HOUSE)).first()
    if entry is None:
        raise RequestRefused(f"no team or house opponent named {name!r}")
    version = entry.current_version()
    if version is None:
        raise RequestRefused(f"{name} has no ready version yet")
    return version


def challenge(team: Entry, opponent: str, games) -> Tuple[Challenge, List[Game]]:
    """`games` games of the team's current version against `opponent` (a house opponent's or
    a team's name), colours alternating, queued ahead of matchmaking's, out of its quota."""
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise RequestRefused("games: a whole number, 1 or more")
    mine = team.current_version()
    if mine is None:
        raise RequestRefused(
            "your team has no ready version yet: upload one and wait for its check")
    theirs = opponent_version(opponent)
    if theirs.entry_id == team.pk:
        raise RequestRefused("a team cannot challenge itself")
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=team.pk)
        if games > entry.challenge_quota:
            raise RequestRefused(f"{wording.counted(games, 'game')} asked, "
                                 f"{entry.challenge_quota} left of your quota (the "
                                 "administrator sets it)")
        entry.challenge_quota -= games
        entry.save(update_fields=["challenge_quota"])
        made = Challenge.objects.create(team=team, opponent=theirs, games=games)
        queued = [Game.objects.create(p1=mine if i % 2 == 0 else theirs,
                                      p2=theirs if i % 2 == 0 else mine,
                                      purpose=Game.CHALLENGE, challenge=made)
                  for i in range(games)]
    return made, queued
