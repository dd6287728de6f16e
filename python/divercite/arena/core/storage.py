"""What the teams' versions hold on the arena's disk: each team's share counted against its
quota (arena.json's team_storage_mb), and the folders that no game needs any more removed.

A rejected version's folder goes once its reason is kept; a superseded version's (a newer
ready version of its team exists) after the arena's retention (retention_days), so that a
team can still go back to it meanwhile. What stays whole: each team's current version, a
version still checking, a version frozen in a final tournament, a version with a game queued
or being played. The games, records, replays and analyses always stay: they are in the
database and analyses/, not in the version's folder."""

from __future__ import annotations

import logging
import shutil
from datetime import timedelta

from django.conf import settings
from django.db.models import BigIntegerField, Count, Exists, OuterRef, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from .models import Entry, Game, TournamentEntry, Version
from ..wording import counted

log = logging.getLogger("divercite.arena")


def used_bytes(team: Entry) -> int:
    """What the team's versions hold now, in bytes."""
    return (team.versions.filter(files_removed__isnull=True)
            .aggregate(total=Sum("size"))["total"] or 0)


def usage():
    """Every team with `used` (what its versions hold now, in bytes: used_bytes) and `kept`
    (its versions that still have their folders), in one query."""
    kept = Q(versions__files_removed__isnull=True)
    return (Entry.objects.filter(kind=Entry.TEAM)
            .annotate(used=Coalesce(Sum("versions__size", filter=kept), 0,
                                    output_field=BigIntegerField()),
                      kept=Count("versions", filter=kept)))


def remove_files(version: Version) -> bool:
    """The version's folder removed, the time kept; False if a game queued or being played
    still needs it (it is removed later, by prune)."""
    if needed(Version.objects.filter(pk=version.pk)).filter(needed=True).exists():
        return False
    shutil.rmtree(version.folder, ignore_errors=True)
    Version.objects.filter(pk=version.pk).update(files_removed=timezone.now())
    return True


def needed(versions):
    """`versions` annotated with `needed`: a game queued or being played uses it."""
    active = Game.objects.filter(status__in=(Game.QUEUED, Game.PLAYING))
    return versions.annotate(needed=Exists(active.filter(
        Q(p1_id=OuterRef("pk")) | Q(p2_id=OuterRef("pk")))))


def removable(now=None):
    """The team versions whose folders may go now: rejected ones, and those superseded for
    longer than the retention, unless a tournament froze them or a game needs them."""
    now = now or timezone.now()
    kept_since = now - timedelta(days=settings.ARENA.retention_days)
    newer_ready = Version.objects.filter(entry_id=OuterRef("entry_id"), status=Version.READY,
                                         number__gt=OuterRef("number"),
                                         created__lt=kept_since)
    frozen = TournamentEntry.objects.filter(version_id=OuterRef("pk"))
    candidates = (Version.objects.filter(entry__kind=Entry.TEAM, files_removed__isnull=True)
                  .filter(Q(status=Version.REJECTED)
                          | Q(status=Version.READY) & Exists(newer_ready))
                  .exclude(Exists(frozen)))
    return needed(candidates).filter(needed=False)


def prune(now=None) -> int:
    """Removes the folders `removable` names; how many went."""
    removed = 0
    for version in removable(now).select_related("entry"):
        shutil.rmtree(version.folder, ignore_errors=True)
        Version.objects.filter(pk=version.pk).update(files_removed=timezone.now())
        removed += 1
    if removed:
        log.info("storage: the folders of %s no game needs removed",
                 counted(removed, "version"))
    return removed
