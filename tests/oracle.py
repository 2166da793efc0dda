"""The differential oracle lives in the package now (`symcompile.oracle`, used by check mode)."""

from symcompile.oracle import *  # noqa: F401,F403
from symcompile.oracle import __all__  # noqa: F401
