"""The code on the documentation pages (README.md and docs/), found and run as a reader would.

Runnable code on a page is a fenced `python` block right after a `<!-- run -->` line. The
blocks of one page run in order, in one namespace (as a reader pasting them into one session
would), each registered in `linecache` so `@symbolic` can read its source. A fenced `console`
block after a `<!-- run -->` line holds shell commands, each on a `$ ` line: a command of
symcompile's command line (`symcompile ...` or `python -m symcompile ...`) runs in this process
and must exit 0. A fenced `text` block right after an `<!-- output -->` line is what the
runnable block before it prints (a console block: what its commands print on stdout); a
runnable block with no such output block must print nothing. A block after a
`<!-- file: NAME -->` line is written to NAME in the working directory, for the blocks after
it to use.

A command written in the text (an inline code span, or a line of a fenced block without a
language, such as `pip install ... && python -m symcompile demo`) is found by
`inline_commands`. tests/test_docs_installed.py runs all of it from an installed copy of the
package; this module imports only the standard library (symcompile when a command runs) so
that test can copy it next to that copy and run it there (`python doc_pages.py`).
"""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

RUN = "<!-- run -->"
OUTPUT = "<!-- output -->"
FILE = re.compile(r"<!-- file: ([\w.-]+) -->")
FENCE = re.compile(r"^```(\w*)\s*$")
PROMPT = "$ "
# how a command of symcompile's command line starts, as typed
CLI = re.compile(r"^(?:symcompile|python3? -m symcompile)(?= |$)")
INLINE_CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, first line number (1-based), text and marker line."""

    language: str
    line: int
    text: str
    marker: str


class CommandFailed(AssertionError):
    """A command on a page exited with a code other than 0."""


def code_blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, each with the non-blank line just above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        end = next((i for i in range(index + 1, len(lines)) if lines[i].rstrip() == "```"), None)
        if end is None:
            raise ValueError(f"{path}: the code block at line {index + 1} is never closed")
        above = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        blocks.append(Block(opening.group(1), index + 2, "\n".join(lines[index + 1:end]), above))
        index = end + 1
    return blocks


def normalized(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def run_command(command: str) -> tuple[int, str, str]:
    """Run one command of symcompile's command line in this process, as typed at a shell:
    (exit code, stdout, stderr)."""
    from symcompile.tools import cli

    words = shlex.split(command)
    argv = words[1:] if words[0] == "symcompile" else words[3:]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exit_:  # argparse's --help and usage errors
            code = exit_.code if isinstance(exit_.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def run_console(block: Block, label: str) -> str:
    """Run a console block's commands in order: what they print on stdout."""
    printed = []
    for line in block.text.splitlines():
        if not line.startswith(PROMPT):
            continue
        command = line[len(PROMPT):].strip()
        if not CLI.match(command):
            raise ValueError(f"{label}: `{command}` is not a command of symcompile's command line")
        code, out, err = run_command(command)
        if code != 0:
            raise CommandFailed(f"{label}: `{command}` exited {code}\n{out}{err}")
        printed.append(out)
    return "".join(printed)


def run_page(path: Path, namespace: dict[str, object] | None = None, marker: str = RUN,
             ) -> list[tuple[Block, str, str]]:
    """Run a page's runnable blocks (those after a `marker` line) in order, in `namespace` (a
    new one by default), and write its file blocks in the working directory: (block,
    expected output, actual output) each."""
    blocks = code_blocks(path)
    namespace = {} if namespace is None else namespace
    namespace.setdefault("__name__", f"docs_{path.stem.replace('-', '_')}")
    results = []
    for position, block in enumerate(blocks):
        written = FILE.fullmatch(block.marker)
        if written:
            Path(written.group(1)).write_text(block.text + "\n", encoding="utf-8")
        if block.marker != marker:
            continue
        following = blocks[position + 1] if position + 1 < len(blocks) else None
        expected = following.text if following and following.marker == OUTPUT else ""
        label = f"<{path.name} line {block.line}>"
        if block.language == "console":
            printed = run_console(block, label)
        else:
            printed = run_python(block, label, namespace)
        results.append((block, normalized(expected), normalized(printed)))
    return results


def run_python(block: Block, filename: str, namespace: dict[str, object]) -> str:
    text = block.text + "\n"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(text, filename, "exec", dont_inherit=True), namespace)
    return printed.getvalue()


def inline_commands(path: Path) -> list[str]:
    """The commands of symcompile's command line written in a page's text: inline code spans
    and the lines of fenced blocks without a language, split at `&&` (console blocks are run
    by `run_page`)."""
    text = path.read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```\s*$", "", text, flags=re.S | re.M)
    spans = [" ".join(span.split()) for span in INLINE_CODE.findall(prose)]  # may break lines
    spans += [line for block in code_blocks(path) if block.language == ""
              for line in block.text.splitlines()]
    parts = [part.strip() for span in spans for part in span.split("&&")]
    return list(dict.fromkeys(part for part in parts if CLI.match(part)))


def run_all(pages: list[Path], skipped: set[str]) -> dict[str, object]:
    """Every page's runnable blocks, each page in its own namespace, then every command in
    their text but `skipped`: a report of what ran, for the test to check."""
    blocks = []
    for path in pages:
        for block, expected, actual in run_page(path):
            blocks.append({"page": path.name, "line": block.line, "expected": expected,
                           "actual": actual})
    commands = []
    for path in pages:
        for command in inline_commands(path):
            if command not in skipped:
                code, out, err = run_command(command)
                commands.append({"page": path.name, "command": command, "code": code,
                                 "out": out, "err": err})
    import symcompile

    path = [str(Path(entry or ".").resolve()) for entry in sys.path]  # "" is the working folder
    return {"symcompile": symcompile.__file__, "path": path, "blocks": blocks,
            "commands": commands}


def main(argv: list[str]) -> None:
    """`python doc_pages.py INSTALLED REPORT PAGES...`: import symcompile from INSTALLED (a
    `pip install --target` folder) ahead of anything else, run the PAGES from the working
    directory and write the report as JSON to REPORT. The commands to leave out are read from
    stdin, one a line."""
    installed, report, *pages = argv
    sys.path[:0] = [installed, ""]  # "": the working directory, as in an interactive session
    skipped = set(sys.stdin.read().splitlines())
    Path(report).write_text(json.dumps(run_all([Path(page) for page in pages], skipped)),
                            encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
