"""Layer 4, the optimization passes, one module each; `pipeline` lists them in order and runs them.

A pass is a plain function `ir.Function -> ir.Function` that does one idea, never mutates its
input, and returns the very same object when it changed nothing. `notes` is how a pass says what
it did; `returns` is a lowering shared by inlining. Passes import the IR, front end and
analyses, never the back end or runtime.
"""
