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
APPLICATION_PACKAGES = ("divercite.arena", "divercite.sandbox", "divercite.course.bridge")
APPLICATIONS = {
    "divercite.match", "divercite.ladder", "divercite.slurm", "divercite.course_export",
    "divercite.course.engine", "divercite.course.player",
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
