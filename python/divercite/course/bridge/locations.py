"""Where the course's code lies: its Divercité folder and the seahorse package."""

import importlib.util
import os

from .interpreter import fail


def holds_course(folder):
    return os.path.isfile(os.path.join(folder, "game_state_divercite.py"))


# Why a folder given as the course's (--course, DIVERCITE_COURSE_DIR) is not one.
NOT_A_COURSE = "neither it nor its divercite folder holds game_state_divercite.py"


def course_in(folder):
    """The Divercité folder of a course given as its root or as that folder itself; None."""
    for candidate in (os.path.join(folder, "divercite"), folder):
        if holds_course(candidate):
            return os.path.abspath(candidate)
    return None


def holds_seahorse(folder):
    return os.path.isfile(os.path.join(folder, "seahorse", "__init__.py"))


def repository_course_dir():
    """<repo>/../shared/course/divercite, for the package in a checkout (<repo>/python/) or
    in its build tree (<repo>/build/python/): the first of the two that exists, else the one
    for a checkout (which the message of find_course_dir names). Nothing further up is
    looked at: a package copied elsewhere must not find a course by chance above it."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    checkout = os.path.dirname(os.path.dirname(package))
    build_tree = os.path.dirname(os.path.dirname(os.path.dirname(package)))
    folders = [os.path.join(os.path.dirname(repo), "shared", "course", "divercite")
               for repo in (checkout, build_tree)]
    return next((f for f in folders if holds_course(f)), folders[0])


def find_course_dir(given, agent_dir):
    """--course (the course root or its divercite folder), else the agent's folder if it
    holds the course's files, else DIVERCITE_COURSE_DIR (root or divercite folder too), else
    the course beside this repository; a clear message and exit code 2 when none holds it."""
    if given is not None:
        folder = course_in(given)
        if folder is None:
            fail(f"--course {given}: {NOT_A_COURSE}")
        return folder
    if holds_course(agent_dir):
        return agent_dir
    environment = os.environ.get("DIVERCITE_COURSE_DIR")
    if environment:
        folder = course_in(environment)
        if folder is not None:
            return folder
        fail(f"DIVERCITE_COURSE_DIR={environment}: {NOT_A_COURSE}")
    folder = repository_course_dir()
    if holds_course(folder):
        return folder
    fail(f"cannot find the course's Divercité folder: not beside the agent ({agent_dir}), "
         f"DIVERCITE_COURSE_DIR is unset, and {folder} does not exist. Give --course DIR "
         "(the folder holding game_state_divercite.py) or set DIVERCITE_COURSE_DIR.")


def find_seahorse_dir(given, course_dir):
    """The folder to put on sys.path for `import seahorse`, or None if already importable."""
    if given is not None:
        folder = os.path.abspath(given)
        if holds_seahorse(folder):
            return folder
        # The package folder itself was given.
        if (os.path.basename(folder) == "seahorse" and
                os.path.isfile(os.path.join(folder, "__init__.py"))):
            return os.path.dirname(folder)
        fail(f"--seahorse {given}: no seahorse package (seahorse/__init__.py) in {folder}")
    spec = importlib.util.find_spec("seahorse")
    if spec is not None and spec.origin is not None:
        return None
    candidates = [os.path.join(os.path.dirname(course_dir), "seahorse")]
    environment = os.environ.get("DIVERCITE_COURSE_DIR")
    if environment:
        candidates += [os.path.join(environment, "seahorse"),
                       os.path.join(os.path.dirname(os.path.abspath(environment)), "seahorse")]
    for folder in candidates:
        if holds_seahorse(folder):
            return os.path.abspath(folder)
    fail("cannot import seahorse: it is not installed, and no seahorse folder holding the "
         f"package was found in {', '.join(candidates)}. Give --seahorse DIR.")
