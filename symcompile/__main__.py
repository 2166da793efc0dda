"""`python -m symcompile`: the command line (see symcompile.tools.cli)."""

import sys

from .tools.cli import main

sys.exit(main())
