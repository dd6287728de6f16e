"""The two launchers (tools/seahorse/course_engine.py, divercite_player.py) hold the same
bootstrap, word for word: what finds the package's finder, divercite_package.py, or says in one
line what to do without it. Each must work copied alone, so neither can import it from a file
beside it; this test keeps the two copies one. What they do with it, copied alone or not, is
test_player_setup's (CopiedAloneTest) and the course tests'.

Run from tests/seahorse (no engine, course or package needed):

    python3 -m unittest -v test_launchers
"""

from __future__ import annotations

import ast
import os
import unittest
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("DIVERCITE_SOURCE_DIR") or Path(__file__).resolve().parents[2])
LAUNCHERS = [SOURCE_DIR / "tools" / "seahorse" / name
             for name in ("course_engine.py", "divercite_player.py")]
BOOTSTRAP = "_import_package_module"


def bootstrap(path: Path) -> tuple[str, str]:
    """The launcher's bootstrap function and the imports it names, each as an AST dump (no
    line numbers, so the copies may stand at different lines)."""
    module = ast.parse(path.read_text(), filename=str(path))
    functions = [node for node in module.body
                 if isinstance(node, ast.FunctionDef) and node.name == BOOTSTRAP]
    if len(functions) != 1:
        raise AssertionError(f"{path.name}: {len(functions)} functions {BOOTSTRAP}, not one")
    used = {node.id for node in ast.walk(functions[0]) if isinstance(node, ast.Name)}
    imports = [node for node in module.body if isinstance(node, (ast.Import, ast.ImportFrom))
               and any((alias.asname or alias.name) in used for alias in node.names)]
    return ast.dump(functions[0]), "\n".join(ast.dump(node) for node in imports)


class LaunchersTest(unittest.TestCase):
    def test_the_launchers_hold_one_bootstrap(self):
        (first, first_imports), (second, second_imports) = map(bootstrap, LAUNCHERS)
        self.assertTrue(first_imports, f"{LAUNCHERS[0].name}: the bootstrap's imports not found")
        self.assertEqual(first_imports, second_imports,
                         "the launchers import what their bootstrap uses differently")
        self.assertEqual(first, second,
                         f"{BOOTSTRAP} differs between {LAUNCHERS[0].name} and "
                         f"{LAUNCHERS[1].name}: change both the same way")

    def test_each_launcher_runs_it_once(self):
        for path in LAUNCHERS:
            with self.subTest(launcher=path.name):
                calls = [node for node in ast.walk(ast.parse(path.read_text()))
                         if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                         and node.func.id == BOOTSTRAP]
                self.assertEqual(len(calls), 1)


if __name__ == "__main__":
    unittest.main()
