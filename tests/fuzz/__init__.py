"""The standing fuzz campaign for symcompile: ``python -m tests.fuzz --minutes 30``.

Outside the test suite's time budget, the campaign runs kinds of random cases, each kind in its
own time slice, each case in a worker subprocess under a per-case timeout. Every call of a
compiled function is compared with the original's by the differential oracle
(`symcompile.runtime.oracle`); besides differences it counts internal errors ("internal error in
symcompile"), hangs (a case past its timeout while compiling or running compiled code) and
crashes (the worker died, or the API raised where it may not). Each finding is minimized and
written as a standalone reproduction (see `runner`).

Modules:

* `core`: a `Case` (module source, a script of steps, the `symbolic` options), running one,
  and what came of it (`Outcome`); the reproduction text;
* `runner`: the worker process, time slices, timeouts, counts, findings;
* `minimize`: shrinking a failing case's source and script;
* `gen_programs`, `gen_numpy`, `gen_syntax`, `gen_sequences`, `gen_hostile`, `gen_edits`,
  `gen_bignum`, `gen_loops`: the kinds of cases (`KINDS` below, in the campaign's order).

`tests/test_fuzz_smoke.py` runs a few cases of every kind in the normal suite;
`tests/test_fuzz_findings.py` keeps the minimal reproductions of what the campaign found.
"""

from __future__ import annotations

KINDS: tuple[str, ...] = ("programs", "numpy", "syntax", "sequences", "hostile", "edits",
                          "bignum", "loops")
