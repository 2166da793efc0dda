"""Layer 3, analyses: facts about IR the passes consult, never rewrites of their own.

`value_types` (what type an expression has), `arrays` (which values are fresh NumPy arrays),
`subscripts` (indices and dependences of element loops), `effects` with `trusted`,
`plain_values`, `evaluation_order` and `clean_statements` (what a statement may read, write or
run, and where no unseen code can have run), `objects` and `attributes` (facts about the
objects a function reads, read without running their code), `constants` (foldable values, pure
builtins), `finalizers` (values whose release time is observable), `fold_budget` (how big a
constant a fold may build). They import the IR and the front end (an effect summary of a
callee needs its IR), nothing above.
"""
