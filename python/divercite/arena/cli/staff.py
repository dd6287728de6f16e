"""The command line of the staff's own accounts: `divercite-arena staff add | token | list`.
A staff user's token is its password on the pages and its key for the staff's API
(core/staff_tokens.py). No Django at import: main.py builds its parser first."""

from __future__ import annotations

import sys

from .. import arena_folder


def _issued(arguments, make, action: str) -> int:
    """A staff user's new token from `make` (staff_tokens.add or reset), recorded as
    `action` in the audit log and printed once."""
    from .arena_setup import setup
    setup(arguments.dir)
    from django.core.exceptions import ValidationError
    from django.db import transaction
    from ..core import audit
    try:
        with transaction.atomic():
            user, token = make(arguments.name)
            audit.record(audit.COMMAND_LINE, action, user.get_username())
    except ValidationError as refused:
        raise arena_folder.ArenaError("; ".join(refused.message_dict["name"])) from None
    print(f"{user.get_username()} {token}")
    print("(shown this once: the password on the pages and the admin's, and the key of "
          "`Authorization: Token TOKEN` for GET /api/status and the tournaments' CSV)",
          file=sys.stderr)
    return 0


def staff_add(arguments) -> int:
    from ..core import staff_tokens
    return _issued(arguments, staff_tokens.add, "staff add")


def staff_token(arguments) -> int:
    from ..core import staff_tokens
    return _issued(arguments, staff_tokens.reset, "staff token reset")


def staff_list(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from django.contrib.auth.models import User
    from ..core.models import StaffToken
    issued = dict(StaffToken.objects.values_list("user_id", "issued"))
    for user in User.objects.filter(is_staff=True).order_by("username"):
        token = f"token issued {issued[user.pk]:%Y-%m-%d %H:%M}" if user.pk in issued else \
            "no token"
        print(f"{user.get_username()}  {token}"
              + ("" if user.is_active else "; inactive"))
    return 0


def add_commands(commands) -> None:
    """`staff ...` among the subcommands `commands` (cli.parser's)."""
    parser = commands.add_parser("staff", help="the staff's accounts and their tokens (add, "
                                 "token, list)")
    actions = parser.add_subparsers(dest="staff_command", required=True,
                                    metavar="add|token|list")
    added = actions.add_parser(
        "add", help="a new staff user; prints NAME TOKEN",
        description="Makes a staff user (an administrator of the admin pages) whose token, "
                    "printed once, is its password and its key for the staff's API.")
    added.add_argument("dir", metavar="DIR")
    added.add_argument("name", metavar="NAME")
    added.set_defaults(run=staff_add)
    reset = actions.add_parser(
        "token", help="a new token for a staff user; prints NAME TOKEN",
        description="Gives a staff user (the administrator `init` made too) a new token, "
                    "printed once, which becomes its password as well: the old token and "
                    "password stop working at once.")
    reset.add_argument("dir", metavar="DIR")
    reset.add_argument("name", metavar="NAME")
    reset.set_defaults(run=staff_token)
    listed = actions.add_parser("list", help="the staff users and their tokens' dates")
    listed.add_argument("dir", metavar="DIR")
    listed.set_defaults(run=staff_list)
