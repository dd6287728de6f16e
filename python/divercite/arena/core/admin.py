"""The administrator's pages (Django's admin): teams (added with their token, tokens reset),
their quotas, versions, games; the final tournaments (created, their CSV, their grading); the
audit log (read-only), which every ModelAdmin of the site writes to (audit.watch_admin)."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.html import format_html

from ..play import house as house_entries
from . import audit, teams, tournament
from .models import (AuditEntry, Challenge, Entry, Game, Tournament, TournamentEntry, Version,
                     WorkerToken, validate_grading)
from .teams import RequestRefused

# Every ModelAdmin registered on the site, here or anywhere, before or after this line,
# records its additions, changes and deletions in the audit log; the admin's logins too.
audit.watch_admin(admin.site)


class TeamAddForm(forms.ModelForm):
    """A new team on the admin pages: its name and quota (its login and token are made as
    `divercite-arena team add` makes them)."""

    class Meta:
        model = Entry
        fields = ("name", "challenge_quota")

    def clean_name(self):
        name = self.cleaned_data["name"]
        try:
            teams.check_new_name(name)
        except ValidationError as refused:
            raise ValidationError(refused.message_dict.get("name") or refused.messages) \
                from None
        return name


def tokens_shown(request, model_admin, issued, title, skipped=()):
    """The page showing new tokens once ([(team, token)]): the arena keeps only their
    digests, and the page is not to be kept by the browser or a proxy either."""
    answer = TemplateResponse(request, "arena/admin_tokens.html", {
        **model_admin.admin_site.each_context(request), "title": title,
        "opts": model_admin.model._meta, "issued": issued, "skipped": skipped,
        "entries": reverse("admin:arena_entry_changelist"),
        "add_team": reverse("admin:arena_entry_add")})
    add_never_cache_headers(answer)
    return answer


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """The entries: a team added here gets its login and token, shown once on the next page;
    "reset the token" gives the teams selected new ones (the old ones stop working at once)."""

    list_display = ("name", "kind", "challenge_quota", "created")
    list_filter = ("kind",)
    readonly_fields = ("token_digest",)
    search_fields = ("name",)
    actions = ["reset_token"]

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            kwargs["form"] = TeamAddForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        return TeamAddForm.Meta.fields if obj is None else super().get_fields(request, obj)

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        _, token = teams.add_team(obj.name, obj)
        request.__dict__.setdefault("_arena_new_tokens", {})[obj.pk] = token

    def response_add(self, request, obj, post_url_continue=None):
        token = getattr(request, "_arena_new_tokens", {}).get(obj.pk)
        if token is None:
            return super().response_add(request, obj, post_url_continue)
        return tokens_shown(request, self, [(obj.name, token)], f"Team {obj.name} added")

    @admin.action(description="Reset the selected teams' tokens (the new ones shown once)")
    def reset_token(self, request, queryset):
        issued, skipped = [], []
        for entry in queryset.select_related("user").order_by("name"):
            try:
                with transaction.atomic():
                    token = teams.reset_token(entry)
                    audit.record(request.user.get_username(), "team token reset", entry.name)
            except ValidationError as refused:
                skipped.append(" ".join(refused.messages))  # which names the entry
                continue
            issued.append((entry.name, token))
        if not issued:
            self.message_user(request, f"No token reset: {'; '.join(skipped)}", messages.ERROR)
            return None
        return tokens_shown(request, self, issued, "New tokens", skipped)


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


class TournamentForm(forms.Form):
    """A new tournament, as `divercite-arena tournament create` names one."""

    name = forms.CharField(max_length=100)
    tc = forms.FloatField(label="Clock", min_value=0.001,
                          help_text="seconds a game, each player (default: the arena's)")
    games_per_pair = forms.IntegerField(min_value=1, initial=2,
                                        help_text="games each pair plays, colours alternating")
    deadline = forms.CharField(
        required=False, help_text="take the versions uploaded before it, as "
                                  "2025-12-05T23:59 (UTC) or 2025-12-05T23:59-05:00; empty: "
                                  "each team's current version")
    excluded = forms.ModelMultipleChoiceField(
        label="Teams left out", required=False, widget=forms.CheckboxSelectMultiple,
        queryset=Entry.objects.filter(kind=Entry.TEAM).order_by("name"), to_field_name="name")
    versions = forms.CharField(
        label="Versions chosen", required=False,
        help_text="TEAM=NUMBER, separated by spaces or commas (a ready version each, whatever "
                  "its date)")
    house = forms.MultipleChoiceField(
        label="House opponents entered", required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(name, name) for name in house_entries.HOUSE])
    grading = forms.CharField(label="Grading", required=False, max_length=500,
                              validators=[validate_grading],
                              help_text=Tournament._meta.get_field("grading").help_text)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tc"].initial = settings.ARENA.tc

    def clean_deadline(self):
        text = self.cleaned_data["deadline"].strip()
        try:
            return tournament.parse_deadline(text) if text else None
        except RequestRefused as refused:
            raise ValidationError(str(refused)) from None

    def clean_versions(self):
        chosen = {}
        for text in self.cleaned_data["versions"].replace(",", " ").split():
            try:
                team, number = tournament.parse_choice(text)
            except RequestRefused as refused:
                raise ValidationError(str(refused).replace("--version ", "")) from None
            if team in chosen:
                raise ValidationError(f"{team} is given two versions")
            chosen[team] = number
        return chosen


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """The final tournaments: "Add tournament" names one as `divercite-arena tournament
    create` does (freezes the versions, queues the games, writes the audit log's line); a
    tournament's page lists its frozen versions, links its CSV, and changes only its grading
    scheme; deleting one deletes its games."""

    list_display = ("name", "games_per_pair", "tc", "deadline", "created", "csv_link")
    fields = ("name", "games_per_pair", "tc", "deadline", "created", "grading", "csv_link")
    readonly_fields = ("name", "games_per_pair", "tc", "deadline", "created", "csv_link")
    inlines = [TournamentEntryInline]

    @admin.display(description="standings")
    def csv_link(self, made):
        return format_html('<a href="{}">CSV, for grading</a> · <a href="{}">the page</a>',
                           reverse("api:tournament-csv", args=[made.pk]),
                           reverse("arena:tournament", args=[made.pk]))

    def add_view(self, request, form_url="", extra_context=None):
        """The form of `tournament create`; on success, the new tournament's page with what
        was frozen and left out."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = TournamentForm(request.POST if request.method == "POST" else None)
        if form.is_bound and form.is_valid():
            given = form.cleaned_data
            try:
                made = tournament.create(
                    given["name"], given["tc"], given["games_per_pair"], given["deadline"],
                    given["versions"], given["house"], actor=request.user.get_username(),
                    excluded=[entry.name for entry in given["excluded"]],
                    grading_scheme=given["grading"])
            except RequestRefused as refused:
                form.add_error(None, str(refused))
            else:
                # What is worth a look; every version entered is listed on the next page.
                said = made.text().splitlines()
                self.message_user(request, f"{said[0]}; {said[-1]}", messages.SUCCESS)
                for frozen in made.entered:
                    if frozen.note:
                        self.message_user(request, f"Entered: {frozen}", messages.WARNING)
                for team, why in made.left_out:
                    self.message_user(request, f"Left out: {team} ({why})", messages.WARNING)
                return redirect("admin:arena_tournament_change", made.tournament.pk)
        return TemplateResponse(request, "arena/admin_tournament_create.html", {
            **self.admin_site.each_context(request), "title": "Create a tournament",
            "opts": self.model._meta, "form": form,
            "tournaments": reverse("admin:arena_tournament_changelist")})


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
