"""The administrator's pages (Django's admin): teams' quotas, versions, games; the audit log
(read-only), which every ModelAdmin of the site writes to (audit.watch_admin)."""

from django.contrib import admin
from django.utils import timezone

from . import audit
from .models import (AuditEntry, Challenge, Entry, Game, Tournament, TournamentEntry, Version,
                     WorkerToken)

# Every ModelAdmin registered on the site, here or anywhere, before or after this line,
# records its additions, changes and deletions in the audit log; the admin's logins too.
audit.watch_admin(admin.site)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "challenge_quota", "created")
    list_filter = ("kind",)
    readonly_fields = ("token_digest",)
    search_fields = ("name",)


@admin.register(Version)
class VersionAdmin(admin.ModelAdmin):
    list_display = ("entry", "number", "status", "created")
    list_filter = ("status",)
    search_fields = ("entry__name",)


class SetAsideFilter(admin.SimpleListFilter):
    """The games the standings leave out (their record does not validate), or the others."""

    title = "set aside"
    parameter_name = "set_aside"

    def lookups(self, request, model_admin):
        return (("yes", "yes"), ("no", "no"))

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(set_aside="")
        if self.value() == "no":
            return queryset.filter(set_aside="")
        return queryset


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "p1", "p2", "purpose", "status", "result", "termination", "ended",
                    "set_aside_reason")
    list_filter = ("status", "purpose", "termination", SetAsideFilter)
    # set_aside is the standings' finding (standings.sound), not the administrator's to edit.
    readonly_fields = ("record", "analysis_json", "set_aside")

    @admin.display(description="set aside", ordering="set_aside", empty_value="")
    def set_aside_reason(self, game):
        return game.set_aside if len(game.set_aside) <= 80 else game.set_aside[:79] + "…"


admin.site.register(Challenge)


@admin.register(WorkerToken)
class WorkerTokenAdmin(admin.ModelAdmin):
    """The workers' tokens: made on the command line (`divercite-arena worker-token add`, which
    shows the secret once), revoked here or there."""

    list_display = ("name", "created", "last_seen", "revoked")
    fields = readonly_fields = ("name", "created", "last_seen", "revoked")
    actions = ["revoke"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Revoke the selected worker tokens")
    def revoke(self, request, queryset):
        for machine in queryset.filter(revoked__isnull=True):
            machine.revoked = timezone.now()
            machine.save(update_fields=["revoked"])
            audit.record(request.user.get_username(), "worker-token revoke", machine.name)


class TournamentEntryInline(admin.TabularInline):
    """A tournament's frozen versions: read-only (frozen when it was named)."""

    model = TournamentEntry
    fields = readonly_fields = ("version",)
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """The final tournaments, read here: one is named on the command line (`divercite-arena
    tournament create`, which freezes the versions and queues the games); deleting one
    deletes its games."""

    list_display = ("name", "games_per_pair", "tc", "deadline", "created")
    readonly_fields = ("name", "games_per_pair", "tc", "deadline", "created")
    inlines = [TournamentEntryInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit log, read-only: no one adds, changes or deletes an entry here."""

    list_display = ("when", "actor", "action", "target", "detail")
    list_filter = ("action", "actor")
    search_fields = ("actor", "action", "target", "detail")
    date_hierarchy = "when"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.site_header = "Divercité arena"
