"""The export's former name, kept for `python3 -m divercite.course_export`: the module is
`divercite.course.export`. Run, this one says so on stderr; imported, it warns
(DeprecationWarning)."""

import sys
import warnings

from .course.export import export, main, read_games, recording_game, select  # noqa: F401

NEW_NAME = "divercite.course_export is the former name of divercite.course.export: use that one"

if __name__ == "__main__":
    print(f"note: {NEW_NAME} (python3 -m divercite.course.export)", file=sys.stderr)
    sys.exit(main())
warnings.warn(NEW_NAME, DeprecationWarning, stacklevel=2)
