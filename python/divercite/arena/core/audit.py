"""The administrator's audit log: one models.AuditEntry for each of the administrator's
actions, read on the admin pages (read-only) or with `divercite-arena audit DIR`.

To record an action (the one function every command and page calls; its signature stays):

    audit.record(actor, action, target="", detail="") -> AuditEntry

    actor   who acted: audit.COMMAND_LINE ("command line") for a command of divercite-arena,
            the admin user's username for the admin pages
    action  what was done, a short fixed phrase (at most 40 characters): "team add",
            "team token reset", "upload", "worker-token add", "worker-token revoke",
            "tournament create", "tournament grading", "tournament retry", "staff add",
            "staff token reset" on the command line; "add", "change", "delete" on the admin
            pages, and their forms' and actions' own ("team token reset", "tournament
            create"); "login", "login failed", "logout" for the admin's logins
    target  what it was done to: a team's name, a worker token's name, a tournament's name;
            on the admin pages "<model> <object> (id N)", e.g. "entry alpha (id 3)"
    detail  what more there is to know, in words: for an admin page's change, each field
            changed, "challenge_quota: 20 -> 40"; never a secret (a token, a password)

Texts too long for their column are cut. Call it in the transaction that makes the change
where there is one (an entry then exists exactly when the change does).

A team's own actions (its uploads and challenges, through the API or the pages) are not the
administrator's and are not recorded here. The admin pages are watched whole by
watch_admin(site), called once where the arena's ModelAdmins are registered (admin.py): every
ModelAdmin registered on the site, before or after, records its additions, changes and
deletions; and the logins of staff users, and failed logins on the admin's login page or
with a staff user's name, are recorded with the address they came from
(logins.client_address: behind the proxy of `serve --production`, the client's).
Failed logins are not recorded one an attempt, which anyone could repeat into a flood: for a
name from an address on a login page, the first of the throttle's window is recorded
("from ADDRESS on PAGE"), and the one that starts the throttle ("N failures from ADDRESS
since HH:MMZ: logins refused until HH:MMZ; the last on PAGE"); while throttled, no password
is checked and none is recorded."""

from __future__ import annotations

import json

from django.contrib.admin.models import LogEntry
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.core.exceptions import FieldDoesNotExist
from django.db import models as django_models
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from .logins import LOGIN_WINDOW, client_address, note_failed_login
from .models import AuditEntry

COMMAND_LINE = "command line"
SECRET_WORDS = ("password", "token", "secret", "digest", "key")


def record(actor: str, action: str, target: str = "", detail: str = "") -> AuditEntry:
    """One action of the administrator's, recorded (see the module's docstring)."""
    fields = {field.name: field.max_length for field in AuditEntry._meta.get_fields()
              if isinstance(field, django_models.CharField)}
    return AuditEntry.objects.create(
        actor=str(actor)[:fields["actor"]], action=str(action)[:fields["action"]],
        target=str(target)[:fields["target"]], detail=str(detail))


def shown(entry: AuditEntry) -> str:
    """An entry as `divercite-arena audit` prints it: one line, tab-separated."""
    detail = entry.detail.replace("\n", " ")
    return "\t".join([entry.when.strftime("%Y-%m-%d %H:%M:%SZ"), entry.actor, entry.action,
                      entry.target, detail]).rstrip("\t")


# The admin pages.

def _secret(name: str) -> bool:
    return any(word in name.lower() for word in SECRET_WORDS)


def _value(value) -> str:
    """A field's value in words."""
    if value is None or value == "":
        return "(none)" if value is None else "''"
    if isinstance(value, django_models.Model):
        return str(value)
    if isinstance(value, django_models.QuerySet) or isinstance(value, (list, tuple, set)):
        return "[" + ", ".join(sorted(str(item) for item in value)) + "]"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _model_value(instance, name: str, form):
    """The value of field `name` of `instance` (a saved one for a many-to-many field: the
    form's value for the new side), else the form's."""
    try:
        field = instance._meta.get_field(name)
    except FieldDoesNotExist:  # a form's field of its own (a password to set twice)
        return form.cleaned_data.get(name) if form is not None else None
    if field.many_to_many:
        return list(getattr(instance, name).all()) if instance.pk else []
    if field.is_relation:
        return getattr(instance, name, None)
    return field.value_from_object(instance)


def _many_to_many(instance, name: str) -> bool:
    try:
        return instance._meta.get_field(name).many_to_many
    except FieldDoesNotExist:
        return False


def _changes(old, new, form, add: bool) -> str:
    """What the form changed: "field: old -> new" (or "field: new" when added)."""
    said = []
    for name in form.changed_data:
        if _secret(name):
            said.append(f"{name}: set" if add else f"{name}: changed")
            continue
        after = _model_value(new, name, form)
        if _many_to_many(new, name):  # saved after save_model: the form's value
            after = form.cleaned_data.get(name, after)
        if add or old is None:
            said.append(f"{name}: {_value(after)}")
        else:
            said.append(f"{name}: {_value(_model_value(old, name, form))} -> {_value(after)}")
    return "; ".join(said)


def _django_message(message) -> str:
    """Django's own change message (a JSON list, or words) in words."""
    return LogEntry(change_message=message if isinstance(message, str) else
                    json.dumps(message)).get_change_message()


def _target(instance, shown_as=None) -> str:
    """"entry alpha (id 3)"; "game 5: random v1 - greedy v1 (id 5)", the model named once."""
    shown_as = str(shown_as or instance)
    model = str(instance._meta.verbose_name)
    named = shown_as if shown_as.lower().startswith(model.lower() + " ") else \
        f"{model} {shown_as}"
    return f"{named} (id {instance.pk})"


class AuditedAdmin:
    """What watch_admin puts before every ModelAdmin's own class: its add, change and delete
    recorded by the logged-in admin's name (Django's own log, the admin's "Recent actions",
    is kept too)."""

    def save_model(self, request, obj, form, change):
        old = None
        if change and obj.pk is not None:
            old = type(obj)._default_manager.filter(pk=obj.pk).first()
        super().save_model(request, obj, form, change)
        said = _changes(old, obj, form, add=not change)
        notes = request.__dict__.setdefault("_audit_changes", {})
        notes[(type(obj), obj.pk)] = said

    def log_addition(self, request, object, message):
        entry = super().log_addition(request, object, message)
        said = getattr(request, "_audit_changes", {}).get((type(object), object.pk))
        record(request.user.get_username(), "add", _target(object),
               said if said is not None else _django_message(message))
        return entry

    def log_change(self, request, object, message):
        entry = super().log_change(request, object, message)
        said = getattr(request, "_audit_changes", {}).pop((type(object), object.pk), None)
        inlines = [part for part in (message if isinstance(message, list) else [])
                   if any("name" in value for value in part.values()
                          if isinstance(value, dict))]
        if said is None:  # not through save_model: a password set, say
            said = _django_message(message)
        elif inlines:
            said = "; ".join(filter(None, [said, _django_message(inlines)]))
        record(request.user.get_username(), "change", _target(object),
               said or "no fields changed")
        return entry

    def log_deletion(self, request, object, object_repr):
        entry = super().log_deletion(request, object, object_repr)
        record(request.user.get_username(), "delete", _target(object, object_repr))
        return entry


def _audited(model_admin) -> None:
    cls = type(model_admin)
    if not isinstance(model_admin, AuditedAdmin):
        model_admin.__class__ = type(cls.__name__, (AuditedAdmin, cls),
                                     {"__module__": cls.__module__,
                                      "__qualname__": cls.__qualname__})


def watch_admin(site) -> None:
    """Every ModelAdmin of `site`, registered now or later, recording its actions; and the
    admin's logins (both once, however often it is called)."""
    for model_admin in site._registry.values():
        _audited(model_admin)
    if not getattr(site, "_audit_watched", False):
        register = site.register

        def audited_register(model_or_iterable, admin_class=None, **options):
            register(model_or_iterable, admin_class, **options)
            for model_admin in site._registry.values():
                _audited(model_admin)

        site.register = audited_register
        site._audit_watched = True
    user_logged_in.connect(_logged_in, dispatch_uid="divercite.arena.core.audit.login")
    user_logged_out.connect(_logged_out, dispatch_uid="divercite.arena.core.audit.logout")
    user_login_failed.connect(_login_failed, dispatch_uid="divercite.arena.core.audit.failed")


def _address(request) -> str:
    where = client_address(request) if request is not None else None
    return f"from {where}" if where else "from an unknown address"


def _admin_page(request) -> bool:
    try:
        return request is not None and request.path.startswith(reverse("admin:index"))
    except NoReverseMatch:
        return False


def _logged_in(sender, request, user, **kwargs):
    if user.is_staff:
        record(user.get_username(), "login", "", _address(request))


def _logged_out(sender, request, user, **kwargs):
    if user is not None and user.is_staff:
        record(user.get_username(), "logout", "", _address(request))


def _login_failed(sender, credentials, request=None, **kwargs):
    from django.contrib.auth import get_user_model
    model = get_user_model()
    name = str(credentials.get(model.USERNAME_FIELD) or credentials.get("username") or "")
    staff = bool(name) and model._default_manager.filter(
        **{model.USERNAME_FIELD: name, "is_staff": True}).exists()
    if not (staff or _admin_page(request)):
        return
    # The name tried is the target, not the actor: anyone may type a staff user's name.
    where = f" on {request.path}" if request is not None else ""
    first = _address(request) + where
    if not AuditEntry.objects.filter(action="login failed", target=name[:200], detail=first,
                                     when__gt=timezone.now() - LOGIN_WINDOW).exists():
        record("anonymous", "login failed", name, first)
    failures = note_failed_login(request, name)
    if failures is not None and failures.throttled_until is not None:
        record("anonymous", "login failed", name, f"{failures.in_words()}; the last{where}")
