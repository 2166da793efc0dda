"""Layer 5, the back end: optimized IR → Python source → a live function.

`codegen` prints IR as Python (with entry checks, rechecks and comments on user lines);
`loader` compiles that text with `compile`/`exec` into a function with the original's globals,
closure, defaults and line numbers. Imports the IR, front end and analyses, never the runtime.
"""
