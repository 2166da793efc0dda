"""Layer 2, the front end: a Python function's source → IR.

`build` finds and checks the source of a live function (the file may have changed since it was
imported), mangles private names as CPython does, spots code that reads its own frame and
translates the AST into IR nodes. It imports only the IR layer.
"""
