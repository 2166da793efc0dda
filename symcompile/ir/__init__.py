"""Layer 1, the IR: what every other layer reads and writes.

`nodes` defines the immutable expression DAG inside structured statements (re-exported here, so
`ir.Function`, `ir.Op`, ... name the node types); `ops` the operator table; `rewrite` the
generic walkers and rebuilders; `names` the structural queries (which names a statement binds
and reads, liveness, sizes); `verify` the well-formedness checker run after every pass;
`syntax_trees` the copying of the Python syntax the IR keeps.
Nothing here imports from the layers above.
"""

from .nodes import *  # noqa: F403 (the node types are the package's namespace)
