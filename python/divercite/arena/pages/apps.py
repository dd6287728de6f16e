"""The arena's pages as a Django application: its views' templates and static files are found
in its folders (APP_DIRS, the static files' app finder)."""

from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "divercite.arena.pages"
    label = "arena_pages"
    verbose_name = "Divercité arena: pages"
