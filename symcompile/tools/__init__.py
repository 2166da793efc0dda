"""Layer 7, tools built on the compiler: views, a whole-module optimizer and the oracle.

`explain` and `report` show what each pass did (text and HTML), `dag` draws the IR, `modules`
optimizes a whole module's source, `cli` is the `symcompile` command, `oracle` compares a
compiled function with the original by bits.
"""
