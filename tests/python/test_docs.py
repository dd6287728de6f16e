"""The package's docstring examples run as written (python-chess's habit)."""

import doctest

import divercite
from divercite import course, svg


def test_docstring_examples():
    failed, attempted = doctest.testmod(divercite, verbose=False)
    assert attempted >= 5 and failed == 0
    for module in (course, svg):
        assert doctest.testmod(module, verbose=False).failed == 0
