"""The package `divercite` is a library and applications over it, and its imports point one
way: no module of the library imports an application. The module paths are what users type
(`python3 -m divercite.ladder`, `from divercite.engine import Engine`), so the two live side
by side in the package; this test, reading every module's imports (relative ones, and those
inside functions, included), is what keeps them apart. A new module must be put in one of
the two lists below."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "divercite"

# The library: the rules (compiled) and their notation, records, pictures, a client of the
# protocol, and the course's formats (its states, recordings, our games as recordings).
LIBRARY = {
    "divercite", "divercite._protocol", "divercite.notation", "divercite.records",
    "divercite.svg", "divercite.engine", "divercite.programs", "divercite.course",
    "divercite.course.states", "divercite.course.recordings", "divercite.course.export",
}
# The applications: what runs matches, agents and competitions (and the export's former
# name, a command users may still type).
APPLICATION_PACKAGES = ("divercite.arena", "divercite.ladder", "divercite.slurm",
                        "divercite.sandbox", "divercite.course.bridge")
APPLICATIONS = {
    "divercite.match", "divercite.course_export", "divercite.course.engine",
    "divercite.course.player", "divercite.course.bridged",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_application(name: str) -> bool:
    return (name in APPLICATIONS or name in APPLICATION_PACKAGES
            or name.startswith(tuple(package + "." for package in APPLICATION_PACKAGES)))


def imported(path: Path) -> set:
    """The divercite modules the module at `path` imports."""
    return imports_of(path.read_text(), module_name(path), path.name == "__init__.py")


def imports_of(text: str, name: str, is_package: bool) -> set:
    """The divercite modules module `name` (of source `text`) imports; `from X import y`
    counts X and X.y."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(text, name)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module.split(".")[0] == "divercite"}


def modules() -> dict:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")
            if "migrations" not in path.parts}


def test_every_module_is_library_or_application():
    unplaced = sorted(name for name in modules()
                      if name not in LIBRARY and not is_application(name))
    assert not unplaced, f"put each in LIBRARY or APPLICATIONS: {unplaced}"
    assert not LIBRARY & APPLICATIONS


def test_the_library_imports_no_application():
    wrong = {name: sorted(module for module in imported(path) if is_application(module))
             for name, path in modules().items() if name in LIBRARY}
    assert not {name: found for name, found in wrong.items() if found}


def test_the_check_sees_an_import_of_an_application():
    """The reading of imports finds one, relative and inside a function alike."""
    probe = "import json\ndef f():\n    from ..sandbox import limits\n    from . import player\n"
    found = imports_of(probe, "divercite.course.probe", False)
    assert found == {"divercite.sandbox", "divercite.sandbox.limits", "divercite.course",
                     "divercite.course.player"}
    assert [name for name in found if is_application(name)]


# The arena's parts (python/divercite/arena/__init__.py), each importing only those after it:
# the command line over the Django project, the project over its apps (pages, then the API,
# then the core), the core over what plays games and reads uploads, all over the arena folder
# and the arena's wording of counts and measures.
ARENA = "divercite.arena"
ARENA_PARTS = ("cli", "project", "pages", "api", "core", "play", "agent_files", "arena_folder",
               "wording")
ARENA_WITHOUT_DJANGO = ("play", "agent_files", "arena_folder", "wording")


def arena_part(name: str):
    """The part of the arena module `name` belongs to; None outside the parts."""
    if not name.startswith(ARENA + "."):
        return None
    part = name[len(ARENA) + 1:].split(".")[0]
    return part if part in ARENA_PARTS else None


def test_the_arena_s_parts_import_downwards():
    upward = {}
    for name, path in modules().items():
        part = arena_part(name)
        if part is None:
            continue
        for module in imported(path):
            other = arena_part(module)
            if other is not None and ARENA_PARTS.index(other) < ARENA_PARTS.index(part):
                upward.setdefault(name, []).append(module)
    assert not upward, f"an arena part imports one above it: {upward}"
    assert {arena_part(name) for name in modules()} >= set(ARENA_PARTS), \
        "a part of ARENA_PARTS is gone: name the parts as they are"


def test_the_arena_s_game_playing_needs_no_django():
    """A worker on another machine runs play/ without Django; so do the upload checks."""
    with_django = {}
    for name, path in modules().items():
        if arena_part(name) not in ARENA_WITHOUT_DJANGO:
            continue
        for node in ast.walk(ast.parse(path.read_text(), name)):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and
                     not node.level else [])
            if any(module.split(".")[0] == "django" for module in names):
                with_django.setdefault(name, []).append(node.lineno)
    assert not with_django, f"Django imported where it must not be: {with_django}"
