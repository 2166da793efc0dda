"""Layer 3, analyses: facts about IR the passes consult, never rewrites of their own.

`value_types` (what type an expression has), `arrays` (which values are fresh NumPy arrays),
`trusted`, `plain_values`, `effects`, `evaluation_order` and `clean_statements` (where code
the compiler cannot see may run: which values are plain, which operations and statements run
unseen code, where the globals checked on entry still hold), `objects` (facts about the
objects a function reads), `attributes` (static attribute reads), `finalizers` (values whose
release time is observable), `fold_budget` (how big a constant a fold may build). They import
the IR and the front end (an effect summary of a callee needs its IR), nothing above.
"""
