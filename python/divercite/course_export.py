"""The export's former name, kept for `python3 -m divercite.course_export`: the module is
`divercite.course.export`."""

import sys

from .course.export import export, main, read_games, recording_game, select  # noqa: F401

if __name__ == "__main__":
    sys.exit(main())
