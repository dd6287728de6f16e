"""python3 -m divercite.arena: the same as the console script divercite-arena."""

import sys

from .cli.main import main

sys.exit(main(module_run=True))
