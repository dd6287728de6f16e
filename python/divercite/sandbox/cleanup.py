"""What the cleaner (box.py's CLEANER, a process of its own) does once a sandboxes' owner
has ended: removes the staged folder, and ends the processes left in the owner's control
groups (a frozen process does not end with its parent)."""

import shutil

from . import cgroups


def clean(stage, group_prefix):
    shutil.rmtree(stage, ignore_errors=True)
    cgroups.release_groups_of(group_prefix)
