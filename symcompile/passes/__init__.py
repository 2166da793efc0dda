"""The optimization passes, one module each; `symcompile.pipeline` lists them in order.

A pass is a plain function `ir.Function -> ir.Function` that does one idea, never mutates its
input, and returns the very same object when it changed nothing.
"""
