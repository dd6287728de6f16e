"""The commands the command line prints work pasted into a fresh shell (issue 57): their
program is the one this process was started as, in words a shell with no environment of ours
runs (cli/invocation.py). tests/scripts/arena_commands_test.sh pastes them for real."""

import os
import shlex
import sys
import tempfile
from pathlib import Path
from unittest import mock

from django.test import SimpleTestCase

from divercite import programs
from divercite.arena.cli import invocation


class InvocationTest(SimpleTestCase):
    def test_run_as_a_module(self):
        """A build tree's package is on no path of this Python's: PYTHONPATH names it."""
        words = shlex.split(invocation.program(module_run=True))
        self.assertEqual(words[-3:], [os.path.abspath(sys.executable), "-m", "divercite.arena"])
        with mock.patch.object(invocation, "_python_finds_package", return_value=False):
            words = shlex.split(invocation.program(module_run=True))
        self.assertIn(f"PYTHONPATH={programs.PACKAGE.parent}", words)
        with mock.patch.object(invocation, "_python_finds_package", return_value=True):
            words = shlex.split(invocation.program(module_run=True))
        self.assertFalse(any(word.startswith("PYTHONPATH=") for word in words))

    def test_run_as_the_console_script(self):
        """A venv's script is on no fresh shell's PATH: named by its path."""
        folder = Path(tempfile.mkdtemp()) / "my venv" / "bin"
        folder.mkdir(parents=True)
        with mock.patch.object(sys, "argv", [str(folder / "divercite-arena"), "init"]):
            program = invocation.program(module_run=False)
        self.assertEqual(shlex.split(program)[-1], str(folder / "divercite-arena"))

    def test_a_program_found_only_through_its_variable(self):
        with mock.patch.object(programs, "installed", return_value=None), \
                mock.patch.dict(os.environ, {"DIVERCITE_MATCH": "/opt/d m/divercite-match"}):
            words = shlex.split(invocation.program(module_run=True))
        self.assertIn("DIVERCITE_MATCH=/opt/d m/divercite-match", words)
