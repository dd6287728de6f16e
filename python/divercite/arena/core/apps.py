"""The arena's core as a Django application: its models and migrations under the label
"arena" (the tables' and the migrations' name since the first arena), the admin, the services."""

from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _sqlite_for_threads(sender, connection, **kwargs):
    """Write-ahead logging: pages read while the workers write, and a kill loses nothing
    that was committed."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")


class ArenaConfig(AppConfig):
    name = "divercite.arena.core"
    label = "arena"
    verbose_name = "Divercité arena"

    def ready(self):
        connection_created.connect(_sqlite_for_threads)
        from . import logins  # noqa: F401 - its receiver counts the failed logins
