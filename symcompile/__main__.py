"""`python -m symcompile`: the command line (see symcompile.cli)."""

import sys

from .cli import main

sys.exit(main())
