"""The ladder (python/divercite/ladder/) in pieces whose imports run one way, each module over
those after it in LADDER_MODULES: the command line over the Slurm jobs, the playing and the
page, these over the standings, the settings and the teams. The ladder never imports the
arena (both seat course agents through divercite.course.bridged), and the Slurm jobs go
through the one submitter, divercite.slurm. Imports as test_package_layers reads them."""

from test_package_layers import imported, modules

LADDER = "divercite.ladder"
LADDER_MODULES = ("__main__", "cli", "cluster", "pairs", "report_html", "standings", "settings",
                  "teams")


def ladder_module(name: str):
    """The ladder's module `name` is (its part after divercite.ladder.); None outside it."""
    return name[len(LADDER) + 1:] if name.startswith(LADDER + ".") else None


def test_every_ladder_module_is_placed():
    found = {ladder_module(name) for name in modules()} - {None}
    assert found == set(LADDER_MODULES), "name the ladder's modules as they are"


def test_the_ladder_s_modules_import_downwards():
    upward = {}
    for name, path in modules().items():
        part = ladder_module(name)
        if part is None:
            continue
        for module in imported(path):
            other = ladder_module(module)
            if other in LADDER_MODULES and \
                    LADDER_MODULES.index(other) <= LADDER_MODULES.index(part):
                upward.setdefault(name, []).append(module)
    assert not upward, f"a ladder module imports one above it (or itself): {upward}"


def test_the_ladder_imports_no_arena_and_one_submitter():
    wrong = {name: sorted(module for module in imported(path)
                          if module.startswith("divercite.arena"))
             for name, path in modules().items()
             if name == LADDER or ladder_module(name) is not None}
    assert not {name: found for name, found in wrong.items() if found}
    imports = set().union(*(imported(path) for name, path in modules().items()
                            if name == LADDER or ladder_module(name) is not None))
    assert "divercite.slurm" in imports
    assert "divercite.course.bridged.agent_player" in imports
