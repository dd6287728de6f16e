"""The administrator's pages (Django's admin): teams' quotas, versions, games."""

from django.contrib import admin

from .models import Challenge, Entry, Game, Version


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


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "p1", "p2", "purpose", "status", "result", "termination", "ended")
    list_filter = ("status", "purpose", "termination")
    readonly_fields = ("record", "analysis_json")


admin.site.register(Challenge)
admin.site.site_header = "Divercité arena"
