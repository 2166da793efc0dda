"""The campaign: time slices per kind, a worker subprocess per case, counts and findings.

Cases run in a long-lived worker process (`multiprocessing`, spawn) that reports each phase of
a case to the parent ("original", "compiled", "harness"); the parent waits at most the case's
timeout. Past it, the worker is killed and started again, and the case counts as a *hang* when
it was compiling or running compiled code (with the worker's stacks, which faulthandler wrote
just before the timeout); when the original itself was that slow, the case is *skipped*.
*Unstable* counts calls whose original did not repeat itself, which are not compared (`core`). A
worker that dies is a *crash*. The worker's own stdout and stderr go to a log file in the
output directory, and it is restarted every `RESTART_EVERY` cases.

The first cases of each finding signature (`core.Finding.signature`) are minimized
(`minimize`); each whose minimized module defines other functions than those before is
written to the output directory as a standalone reproduction (`core.reproduction`);
`summary.md` there lists the counts and the findings.
"""

from __future__ import annotations

import faulthandler
import multiprocessing
import os
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from tests.fuzz.core import Case, Finding, Outcome, generate, reproduction, run_case
from tests.fuzz.minimize import shrink

RESTART_EVERY = 300
# cases of one finding signature that are shrunk (others are only counted)
SHRINK_PER_SIGNATURE = 3
# time to generate a case and load its module, on top of its timeout
SLACK = 10.0
COUNTS = ("programs", "calls", "differences", "internal_errors", "hangs", "crashes",
          "refusals", "skipped", "unstable")
CATEGORY_COUNT = {"difference": "differences", "internal_error": "internal_errors",
                  "hang": "hangs", "crash": "crashes", "refusal": "refusals"}


# ------------------------------------------------------------------------------------------
# the worker
# ------------------------------------------------------------------------------------------


def _serve(conn: Connection, log: str, stacks: str) -> None:
    """The worker's loop: ("generate", kind, seed) or ("run", case) in, messages out."""
    with open(log, "a", encoding="utf-8") as out:
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    stack_file = open(stacks, "w", encoding="utf-8")  # noqa: SIM115 - open while serving
    conn.send(("ready",))
    with tempfile.TemporaryDirectory(prefix="symcompile-fuzz-") as name:
        while True:
            request = conn.recv()
            if request is None:
                return
            stack_file.seek(0)
            stack_file.truncate()
            if request[0] == "generate":
                try:
                    case = generate(request[1], request[2])
                except Exception as exc:  # noqa: BLE001 - the generator's own bug, reported
                    conn.send(("done", Outcome(finding=Finding(
                        "crash", f"the generator failed: {type(exc).__name__}: {exc}"))))
                    continue
                conn.send(("case", case))
            else:
                case = request[1]
            faulthandler.dump_traceback_later(max(case.timeout - 0.5, 0.5), file=stack_file)
            outcome = run_case(case, Path(name), lambda phase: conn.send(("phase", phase)))
            faulthandler.cancel_dump_traceback_later()
            conn.send(("done", outcome))


@dataclass
class Result:
    case: Case | None
    outcome: Outcome
    skipped: bool = False


class Worker:
    """A worker process, restarted when it hangs, dies or has served `RESTART_EVERY` cases."""

    def __init__(self, out: Path, slack: float = SLACK) -> None:
        self.out = out
        self.slack = slack
        self.context = multiprocessing.get_context("spawn")
        self.process: Any = None
        self.conn: Connection | None = None
        self.served = 0
        self.stacks = str(out / "worker-stacks.txt")

    def _start(self) -> None:
        parent, child = self.context.Pipe()
        self.process = self.context.Process(
            target=_serve, args=(child, str(self.out / "worker.log"), self.stacks), daemon=True)
        self.process.start()
        child.close()
        self.conn = parent
        self.served = 0
        if not parent.poll(120) or parent.recv() != ("ready",):
            raise RuntimeError("the fuzz worker did not start")

    def stop(self) -> None:
        if self.process is not None:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(5)
        self.process = None
        self.conn = None

    def run(self, request: tuple[Any, ...], timeout: float = 30.0) -> Result:
        if self.process is None or self.served >= RESTART_EVERY:
            self.stop()
            self._start()
        assert self.conn is not None
        self.served += 1
        case: Case | None = request[1] if request[0] == "run" else None
        phase = "harness"
        deadline = time.monotonic() + (case.timeout if case else timeout) + self.slack
        self.conn.send(request)
        while True:
            remaining = deadline - time.monotonic()
            try:
                ready = remaining > 0 and self.conn.poll(remaining)
                message = self.conn.recv() if ready else None
            except (EOFError, OSError):
                code = self.process.exitcode if self.process else None
                self.stop()
                detail = f"the worker process died (exit code {code}) during phase {phase}"
                return Result(case, Outcome(finding=Finding("crash", detail)))
            if message is None:
                return self._timed_out(case, phase)
            if message[0] == "case":
                case = message[1]
                deadline = time.monotonic() + case.timeout + self.slack
            elif message[0] == "phase":
                phase = message[1]
            elif message[0] == "done":
                return Result(case, message[1])

    def _timed_out(self, case: Case | None, phase: str) -> Result:
        self.stop()
        if phase != "compiled":
            return Result(case, Outcome(), skipped=True)
        stacks = Path(self.stacks).read_text(encoding="utf-8", errors="replace")
        detail = (f"no answer within {case.timeout if case else '?'} s while compiling or "
                  f"running compiled code\n{stacks[-6000:]}")
        return Result(case, Outcome(finding=Finding("hang", detail)))


# ------------------------------------------------------------------------------------------
# the campaign
# ------------------------------------------------------------------------------------------


@dataclass
class Found:
    """One distinct finding: its first (minimized) case and how often it came up."""

    signature: str
    kind: str
    finding: Finding
    case: Case
    file: str
    count: int = 1
    seeds: list[int] = field(default_factory=list)


class Campaign:
    def __init__(self, out: Path, minimize_seconds: float = 90.0, quiet: bool = False) -> None:
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        self.worker = Worker(out)
        self.minimize_seconds = minimize_seconds
        self.quiet = quiet
        self.counts: dict[str, Counter[str]] = {}
        self.found: dict[str, Found] = {}
        self.shrunk: dict[str, int] = {}
        self.first_key: dict[str, str] = {}
        self.seconds: dict[str, float] = {}

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    def run_kind(self, kind: str, base_seed: int, seconds: float | None = None,
                 cases: int | None = None) -> None:
        """Cases of `kind` for `seconds` (or `cases` of them), seeds from `base_seed` up."""
        counts = self.counts.setdefault(kind, Counter({name: 0 for name in COUNTS}))
        start = time.monotonic()
        end = start + seconds if seconds is not None else float("inf")
        index = 0
        while time.monotonic() < end and (cases is None or index < cases):
            seed = base_seed + index
            index += 1
            result = self.worker.run(("generate", kind, seed))
            if result.skipped or result.case is None and result.outcome.finding is None:
                counts["skipped"] += 1
                continue
            counts["programs"] += 1
            counts["calls"] += result.outcome.calls
            counts["unstable"] += result.outcome.unstable
            finding = result.outcome.finding
            if finding is not None:
                counts[CATEGORY_COUNT[finding.category]] += 1
                self._record(kind, seed, result.case, finding)
        self.seconds[kind] = self.seconds.get(kind, 0.0) + time.monotonic() - start
        self.say(f"[{kind}] " + ", ".join(f"{counts[n]} {n}" for n in COUNTS)
                 + f" in {self.seconds[kind]:.0f} s")

    def _record(self, kind: str, seed: int, case: Case | None, finding: Finding) -> None:
        """Count a finding; shrink the first `SHRINK_PER_SIGNATURE` cases of its signature,
        and write a reproduction for each whose shrunk form is new (its signature and the
        dunders and functions the shrunk module still defines tell them apart)."""
        signature = f"{kind} | {finding.signature()}"
        shrunk = self.shrunk.get(signature, 0)
        if shrunk >= SHRINK_PER_SIGNATURE or case is None or self.minimize_seconds <= 0:
            key = self.first_key.get(signature, signature)  # counted with the first shrunk
            self._count(key, seed, kind, finding, case or Case(kind, seed, "", []))
            return
        self.shrunk[signature] = shrunk + 1
        self.say(f"[{kind}] finding (seed {seed}): {finding.signature()}")
        case, finding = self._minimized(case, finding)
        key = f"{signature} | {', '.join(_defined(case.source))}"
        self.first_key.setdefault(signature, key)
        self._count(key, seed, kind, finding, case)

    def _count(self, key: str, seed: int, kind: str, finding: Finding, case: Case) -> None:
        if key in self.found:
            self.found[key].count += 1
            self.found[key].seeds.append(seed)
            return
        name = f"{kind}-{finding.category}-{len(self.found) + 1:03d}.py"
        (self.out / name).write_text(reproduction(case, finding), encoding="utf-8")
        self.found[key] = Found(key, kind, finding, case, name, seeds=[seed])
        self.say(f"    new: {name}")
        self.write_summary()

    def _minimized(self, case: Case, finding: Finding) -> tuple[Case, Finding]:
        wanted = finding.signature()
        last = {"finding": finding}

        def fails(candidate: Case) -> bool:
            result = self.worker.run(("run", candidate))
            got = result.outcome.finding
            if got is not None and got.signature() == wanted:
                last["finding"] = got
                return True
            return False

        best, tries = shrink(case, fails, self.minimize_seconds)
        result = self.worker.run(("run", best))
        final = result.outcome.finding if result.outcome.finding is not None else last["finding"]
        self.say(f"    minimized in {tries} tries: {len(case.source)} -> {len(best.source)} "
                 f"characters, {len(case.steps)} -> {len(best.steps)} steps")
        return best, final

    def write_summary(self) -> None:
        lines = ["# Fuzz campaign summary", "", "| kind | seconds | " + " | ".join(COUNTS) + " |",
                 "|---" * (len(COUNTS) + 2) + "|"]
        for kind, counts in self.counts.items():
            lines.append(f"| {kind} | {self.seconds.get(kind, 0):.0f} | "
                         + " | ".join(str(counts[n]) for n in COUNTS) + " |")
        lines += ["", "## Findings", ""]
        for found in self.found.values():
            lines.append(f"- `{found.file}` ({found.count}x, seeds {found.seeds[:8]}): "
                         f"{found.signature}")
        (self.out / "summary.md").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def close(self) -> None:
        self.worker.stop()
        self.write_summary()


def _defined(source: str) -> list[str]:
    """The names of the functions (dunders included) a module defines, sorted."""
    return sorted(set(re.findall(r"def (\w+)", source)))


def run_campaign(minutes: float, seed: int, kinds: list[str], out: Path,
                 cases: int | None = None, minimize_seconds: float = 90.0,
                 quiet: bool = False) -> Campaign:
    """Each kind in turn for `minutes / len(kinds)` (or `cases` cases each)."""
    campaign = Campaign(out, minimize_seconds, quiet)
    slice_seconds = minutes * 60 / len(kinds) if cases is None else None
    try:
        for number, kind in enumerate(kinds):
            campaign.run_kind(kind, seed * 1_000_000 + number * 100_000, slice_seconds, cases)
    finally:
        campaign.close()
    return campaign


def report(campaign: Campaign) -> str:
    """The counts per kind and the findings, as text."""
    width = max([len(k) for k in campaign.counts] + [4])
    head = f"{'kind':<{width}}  " + "  ".join(f"{n:>15}" for n in COUNTS)
    rows = [head] + [f"{kind:<{width}}  " + "  ".join(f"{counts[n]:>15}" for n in COUNTS)
                     for kind, counts in campaign.counts.items()]
    total = Counter()
    for counts in campaign.counts.values():
        total.update(counts)
    rows.append(f"{'all':<{width}}  " + "  ".join(f"{total[n]:>15}" for n in COUNTS))
    rows += ["", f"{len(campaign.found)} distinct findings (reproductions in {campaign.out}):"]
    rows += [f"  {f.file}: {f.count}x  {f.signature}" for f in campaign.found.values()]
    return "\n".join(rows)

