"""What an arena keeps: entries of the table (teams and house opponents), their versions,
the games (the queue too: a game is queued, then played, then done), the challenges, the
final tournaments, the workers' tokens, `serve`'s own workers, the staff's tokens and the
administrator's audit log."""

import hashlib
import re

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models

from . import grading

# A team's name is written in records, file names and URLs as it is.
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}"
NAME = re.compile(NAME_PATTERN)


def token_digest(token: str) -> str:
    """What the arena keeps of a token: its SHA-256 (a token is random, 144 bits: no salt or
    slow hash is needed, and a lookup stays one indexed query)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Entry(models.Model):
    """A line of the standings: a team, or a house opponent (kind house); the checker, the
    course's random player that every new version first meets, is listed nowhere."""

    TEAM, HOUSE, CHECKER = "team", "house", "checker"
    name = models.CharField(max_length=40, unique=True, validators=[RegexValidator(
        f"^{NAME_PATTERN}$", "letters, digits, '_', '.' or '-', at most 40, a letter or a "
        "digit first")])
    kind = models.CharField(max_length=8, choices=[(k, k) for k in (TEAM, HOUSE, CHECKER)])
    user = models.OneToOneField(User, null=True, blank=True, on_delete=models.CASCADE)
    token_digest = models.CharField(max_length=64, blank=True, db_index=True)
    challenge_quota = models.PositiveIntegerField(
        default=20, help_text="challenge games this team may still ask for")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "entries"

    def __str__(self):
        return self.name

    def current_version(self):
        """The version that plays: a team's newest ready one; a house entry's only one."""
        return self.versions.filter(status=Version.READY).order_by("-number").first()


class Version(models.Model):
    """One upload of a team (its files in the arena's agents/<id>/), or a house opponent's."""

    CHECKING, READY, REJECTED = "checking", "ready", "rejected"
    entry = models.ForeignKey(Entry, related_name="versions", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=9, default=CHECKING,
                              choices=[(s, s) for s in (CHECKING, READY, REJECTED)])
    reason = models.TextField(blank=True)
    upload_name = models.CharField(max_length=200, blank=True)
    agent_file = models.CharField(max_length=200, blank=True)  # within the folder
    house = models.CharField(max_length=20, blank=True)  # house.HOUSE's key
    created = models.DateTimeField(auto_now_add=True)
    # What its folder holds, in bytes (the team's storage quota counts it until the folder
    # is removed).
    size = models.BigIntegerField(default=0)
    # When its folder was removed (a rejected version once its reason is kept, a superseded
    # one after the arena's retention): it plays no more; its games and records stay.
    files_removed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entry__name", "-number"]
        constraints = [models.UniqueConstraint(fields=["entry", "number"],
                                               name="one_number_a_version")]

    def __str__(self):
        return f"{self.entry.name} v{self.number}"

    @property
    def folder(self):
        return settings.ARENA.agents / str(self.pk)


class UploadAttempt(models.Model):
    """One upload a team sent, taken or refused: the hourly limit counts them all."""

    team = models.ForeignKey(Entry, related_name="upload_attempts", on_delete=models.CASCADE)
    when = models.DateTimeField(auto_now_add=True, db_index=True)
    refused = models.TextField(blank=True)  # why, for a refused one


class Challenge(models.Model):
    """A team's games against an opponent it chose, played ahead of matchmaking's."""

    team = models.ForeignKey(Entry, related_name="challenges", on_delete=models.CASCADE)
    opponent = models.ForeignKey(Version, related_name="challenged", on_delete=models.CASCADE)
    games = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)


class Game(models.Model):
    """A game: queued, then playing (claimed by a worker), then done (its record kept whole)
    or failed (the runner could not play it; its reason kept)."""

    # A game matchmaking made is stored (and shown, and sent by the API) as "ladder", its name
    # when the arena began.
    CHECK, MATCHMADE, CHALLENGE, TOURNAMENT = "check", "ladder", "challenge", "tournament"
    QUEUED, PLAYING, DONE, FAILED = "queued", "playing", "done", "failed"
    p1 = models.ForeignKey(Version, related_name="games_first", on_delete=models.CASCADE)
    p2 = models.ForeignKey(Version, related_name="games_second", on_delete=models.CASCADE)
    purpose = models.CharField(max_length=10, choices=[
        (p, p) for p in (CHECK, MATCHMADE, CHALLENGE, TOURNAMENT)])
    challenge = models.ForeignKey(Challenge, null=True, blank=True, related_name="game_set",
                                  on_delete=models.SET_NULL)
    tournament = models.ForeignKey("Tournament", null=True, blank=True, related_name="games",
                                   on_delete=models.CASCADE)
    status = models.CharField(max_length=7, default=QUEUED, db_index=True,
                              choices=[(s, s) for s in (QUEUED, PLAYING, DONE, FAILED)])
    worker = models.CharField(max_length=100, blank=True)  # the claim: who plays it
    # A remote worker's claim ends here unless renewed (its heartbeats); then the game is
    # queued again. None for the games of serve's own workers (a restart requeues those).
    lease_until = models.DateTimeField(null=True, blank=True)
    # The game as it is played: the runner's -live lines (JSON, one a line), cleared when done.
    live = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    queued = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.CharField(max_length=7, null=True, blank=True)  # 1-0, 0-1, 1/2-1/2
    score1 = models.IntegerField(null=True, blank=True)
    score2 = models.IntegerField(null=True, blank=True)
    divercites1 = models.IntegerField(null=True, blank=True)
    divercites2 = models.IntegerField(null=True, blank=True)
    termination = models.CharField(max_length=20, blank=True)
    reason = models.TextField(blank=True)
    record = models.TextField(blank=True)  # divercite-match's JSON line
    # The analysis of a team's lost game (divercite-analyze): "", pending, running, done,
    # failed.
    analysis = models.CharField(max_length=7, blank=True)
    analysis_json = models.TextField(blank=True)
    # Why a finished game's record is left out of the standings (it does not validate: kept
    # before the checks of record_checks.py, or edited by hand; or its loss was a busy
    # worker's, "worker overloaded: ..."); "" for every sound one.
    set_aside = models.TextField(blank=True)
    # The check game whose verdict this one plays again: a remote worker found the version
    # at fault, which only its own word says (game_queue.finish); another worker decides.
    second_opinion_of = models.ForeignKey("self", null=True, blank=True,
                                          related_name="second_opinions",
                                          on_delete=models.SET_NULL)
    # The game whose loss was the worker's (play/fairness.py: set aside, "worker
    # overloaded") and that this one plays again.
    replay_of = models.ForeignKey("self", null=True, blank=True, related_name="replays",
                                  on_delete=models.SET_NULL)
    # What each side's agent wrote during the game (its prints, tracebacks and the bridge's
    # warnings: the last 64 KB), for its own team and the staff only; "" for our engine.
    log1 = models.TextField(blank=True)
    log2 = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "purpose"])]

    def __str__(self):
        return f"game {self.pk}: {self.p1} - {self.p2}"

    def log_of(self, side: int) -> str:
        return self.log1 if side == 1 else self.log2

    def loser(self):
        """The version that lost it; None for a draw or a game not done."""
        if self.status != self.DONE or self.result not in ("1-0", "0-1"):
            return None
        return self.p2 if self.result == "1-0" else self.p1


def validate_grading(text: str) -> None:
    """A tournament's grading scheme as grading.parse reads it, or why not."""
    try:
        grading.parse(text)
    except grading.GradingError as refused:
        raise ValidationError(str(refused)) from None


class Tournament(models.Model):
    """A final tournament: one frozen version a team (its entries), a round robin of
    `games_per_pair` games a pair at its own clock, played apart from matchmaking."""

    name = models.CharField(max_length=100, unique=True)
    games_per_pair = models.PositiveIntegerField(default=2)
    tc = models.FloatField(help_text="seconds a game, each player")
    deadline = models.DateTimeField(null=True, blank=True,
                                    help_text="versions uploaded after it were not taken")
    created = models.DateTimeField(auto_now_add=True)
    # The staff's, for the CSV's grade column (grading.py); set or changed at any time.
    grading = models.CharField(
        max_length=500, blank=True, validators=[validate_grading],
        help_text="grades from ranks, as `rank 1-3:100, 4-6:90, 7-:80`, or from points, as "
                  "`points 5:100, 3.5:90, 0:75` (the grade of the highest threshold reached); "
                  "empty: no grades")

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return self.name


class TournamentEntry(models.Model):
    """The version a team plays a tournament with, frozen when the tournament was named."""

    tournament = models.ForeignKey(Tournament, related_name="entries", on_delete=models.CASCADE)
    version = models.ForeignKey(Version, related_name="tournament_entries",
                                on_delete=models.PROTECT)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "version"],
                                               name="one_entry_a_version")]


class WorkerToken(models.Model):
    """A machine's right to claim and play games over HTTP (`divercite-arena worker`),
    created and revoked by the administrator; the arena keeps only the token's digest."""

    name = models.CharField(max_length=100, unique=True)
    token_digest = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    revoked = models.DateTimeField(null=True, blank=True)
    last_seen = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class ServeWorker(models.Model):
    """One of `serve`'s own game workers (a thread; its name "serve-PID/N", as its games'
    `worker`), registered while its serve runs and seen between games (serve_workers.Workers),
    for the staff's status page."""

    name = models.CharField(max_length=100, unique=True)
    started = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class StaffToken(models.Model):
    """A staff user's token (`divercite-arena staff add | token`): its password on the pages
    and its key for the staff's API (GET /api/status, a tournament's CSV); only its digest is
    kept."""

    user = models.OneToOneField(User, related_name="staff_token", on_delete=models.CASCADE)
    token_digest = models.CharField(max_length=64, unique=True)
    issued = models.DateTimeField()  # when this token was issued (the last reset)

    def __str__(self):
        return self.user.get_username()


class AuditEntry(models.Model):
    """One action of the administrator's (on the command line or the admin pages)."""

    when = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.CharField(max_length=150)  # the admin user, or "command line"
    action = models.CharField(max_length=40)
    target = models.CharField(max_length=200, blank=True)
    detail = models.TextField(blank=True)

    class Meta:
        ordering = ["-when", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self):
        return f"{self.when:%Y-%m-%d %H:%M:%S} {self.actor}: {self.action} {self.target}"


class FailedLogin(models.Model):
    """A login that failed: the throttle counts them by address and by name."""

    when = models.DateTimeField(auto_now_add=True, db_index=True)
    address = models.CharField(max_length=64, db_index=True)
    username = models.CharField(max_length=150, db_index=True)
