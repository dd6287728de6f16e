"""`python3 -m divercite.ladder CLASS_DIR ...`: the ladder's command line (cli)."""

import sys

from .cli import main

sys.exit(main())
