"""The one compile path: a function's source → front end → passes → code generation → loader.

`compile_version(source, options)` is the only place the stages are chained. Every user goes
through it: `@symbolic` functions and compiled objects (through `cache.FunctionCache`, which
also adds the checks on entry and loads the code in the original's world, `Loading`), check
mode's search for the first pass that changes a result, `explain`, `optimize_source` (whole
modules: no loading, nothing checked on entry) and the golden tests. What differs between them
is said by the frozen `Options`; the resulting `Version` holds what each of them reads: the
generated source, the IR before and after the passes, the pass log with its notes, the
assumptions the code relies on, and the loaded function.
"""

from __future__ import annotations

import ast
import dataclasses
import types
import weakref
from typing import Callable, Mapping

from .. import ir
from ..analysis import objects
from ..backend import codegen, loader
from ..frontend import build as frontend
from ..ir.nodes import Assumption, Function
from ..ir.rewrite import map_statement_expressions, map_statements
from ..passes import notes, pipeline
from ..passes.notes import Note
from ..passes.pipeline import Pass, PassRun


@dataclasses.dataclass(frozen=True)
class Source:
    """What is compiled: a function's `def` as written, and the globals the passes may read
    (None: none; a name's value is then never relied on)."""

    function: frontend.FunctionSource
    namespace: ir.Namespace | None = None

    @classmethod
    def of(cls, func: types.FunctionType) -> Source:
        """The source of a live function, with its module's globals and the builtins."""
        return cls(frontend.read_function_source(func), frontend.namespace_of(func))


@dataclasses.dataclass(frozen=True)
class CompiledObject:
    """For a compiled object (`symbolic(net)`): its class, and what the class held as
    `__call__` when it was compiled; the code checks on entry that both are still so."""

    kind: type
    called: object


@dataclasses.dataclass(frozen=True)
class Options:
    """How a version is compiled.

    passes: the pipeline. guards: the globals may change (the code checks on entry that those
    relied on still hold); False freezes them. fastmath: the rewrites true only for real
    numbers. comments: each generated statement says where it came from. resolve_globals: the
    passes may read the globals (False: they rely on none). static: parameter values written
    into the code. argument_types: the exact argument types (and array kinds) relied on.
    compiled_object: the object whose structure the passes may read, if any. objects: free
    names taken as these very objects, relying on nothing (the caller promises they hold:
    `optimize_source`'s fixed names). finish: a last rewrite of the passes' result before code
    generation; None from it keeps the function as written. weigh_types: a version for a call,
    relying on its argument types only where the cost model expects that to pay
    (`pipeline.specialized_if_it_pays`).
    """

    passes: tuple[Pass, ...] = pipeline.PASSES
    guards: bool = True
    fastmath: bool = False
    comments: bool = False
    resolve_globals: bool = True
    static: Mapping[str, object] = dataclasses.field(default_factory=dict)
    argument_types: Mapping[str, ir.ArgumentType] = dataclasses.field(default_factory=dict)
    compiled_object: CompiledObject | None = None
    objects: Mapping[str, object] = dataclasses.field(default_factory=dict)
    finish: Callable[[ir.Function], ir.Function | None] | None = None
    weigh_types: bool = False


@dataclasses.dataclass(frozen=True)
class Loading:
    """How a live function's version is loaded: in the original's world (`scope`), with at
    least `free_count` free variables (the public function's closure, which only grows), the
    original's docstring, and its checks on entry sending a call that fails them to
    `recompile` (a global rebound, a static value changed) or `type_miss` (another type);
    with `tidy`, an exception leaving such a call has its traceback tidied (`loader.load`)."""

    scope: loader.Scope
    doc: str | None
    recompile: Callable[..., object]
    type_miss: Callable[..., object]
    free_count: int = 0
    tidy: loader.Tidy | None = None


@dataclasses.dataclass
class Version:
    """One version of a function: what was compiled, and what came out of each stage.

    `ir` is None for a function kept as written (`note` says why): its `source` is then the
    function's own text, and `function` the original itself. `function` is None where the
    version was not loaded (no `Loading`)."""

    written: frontend.FunctionSource
    source: str
    function: types.FunctionType | None
    before: Function | None = None
    ir: Function | None = None
    log: list[PassRun] = dataclasses.field(default_factory=list)
    bindings: dict[str, object] = dataclasses.field(default_factory=dict)
    filename: str | None = None  # the generated source's name in linecache
    note: str = ""
    # for each line of `source`, the user's line it runs as (`codegen.user_lines`)
    lines: tuple[int, ...] = ()
    # a version restored from the disk cache: what it relies on (it has no IR), its entry
    relied: tuple[Assumption, ...] = ()
    from_disk: str | None = None

    @property
    def assumptions(self) -> tuple[Assumption, ...]:
        """What the code relies on (checked on entry where a `Loading` asked for checks)."""
        return self.ir.assumptions if self.ir is not None else self.relied

    @property
    def notes(self) -> list[Note]:
        """What every pass run said it did and left alone, in order."""
        return [note for run in self.log for note in run.notes]

    def loaded(self) -> types.FunctionType:
        """The function this version runs; TypeError if it was compiled without loading."""
        if self.function is None:
            raise TypeError(f"this version of {self.written.node.name} was not loaded")
        return self.function


def kept_as_written(source: frontend.FunctionSource, note: str,
                    original: types.FunctionType | None = None) -> Version:
    """A version that runs the original code (`original`, where there is one): the whole
    function kept opaque, `note` saying why."""
    return Version(source, source.text, original, note=note)


def compile_version(source: Source, options: Options, loading: Loading | None = None) -> Version:
    """`source` compiled with `options`: front end, passes, code generation, and with
    `loading` the checks on entry and the loaded function (the garbage collector paused
    throughout, `pipeline.collector_paused`)."""
    with pipeline.collector_paused():
        return _compiled_version(source, options, loading)


def _compiled_version(source: Source, options: Options, loading: Loading | None) -> Version:
    before, after, log = _optimized(source, options)
    if options.finish is not None:
        finished = options.finish(after)
        if finished is None:
            return Version(source.function, source.function.text, None, before=before, log=log,
                           note="relies on what the code cannot check")
        after = finished
    comments = notes.comments_for(after, [note for run in log for note in run.notes],
                                  source.function.lines) if options.comments else None
    private_class = loading.scope.private_class if loading is not None else None

    def spell(node: ast.FunctionDef) -> ast.FunctionDef:
        return frontend.unmangle_names(node, private_class)

    generated = codegen.render_function(
        after, loading.recompile if loading else None, guard_globals=options.guards,
        type_miss=loading.type_miss if loading else None, comments=comments, spell_names=spell)
    version = Version(source.function, generated.source, None, before=before, ir=after, log=log,
                      bindings=generated.bindings, lines=generated.lines)
    if loading is not None:
        version.function, version.filename = _loaded(generated, after.shared_cells, loading)
    return version


def restored_version(source: Source, generated: codegen.Generated,
                     relied: tuple[Assumption, ...], loading: Loading, entry: str) -> Version:
    """A version read back from the disk cache's `entry` (`disk_cache`): its generated source,
    the objects it binds found again, and what it relies on, loaded as a compiled one is."""
    version = Version(source.function, generated.source, None, bindings=generated.bindings,
                      lines=generated.lines, relied=relied, from_disk=entry)
    version.function, version.filename = _loaded(generated, {}, loading)
    return version


def _optimized(source: Source, options: Options) -> tuple[ir.Function, ir.Function, list[PassRun]]:
    """Front end and passes: (IR before, IR after, log of pass runs). A compiled object's
    structure is read only where the code cannot change it while it runs; otherwise the
    function is compiled again without reading it."""
    resolve_objects = options.compiled_object is not None and options.resolve_globals
    before, after, log = _passes(_front_end(source, options, resolve_objects), options)
    relied = objects.holds_during_call(after) if resolve_objects else None
    if resolve_objects and relied is None:
        # code the compiler cannot see (or a store) could change the objects mid-call
        before, after, log = _passes(_front_end(source, options, False), options)
    elif relied:  # the objects hold if the arguments' kinds and the globals are as compiled
        after = after.assuming(*relied)
    if options.compiled_object is not None:  # (its one static value: the object)
        (instance,) = options.static.values()
        called = options.compiled_object
        after = after.assuming(*objects.call_facts(instance, called.called, called.kind))
    return before, after, log


def _passes(before: ir.Function, options: Options) -> tuple[ir.Function, ir.Function, list[PassRun]]:
    """The passes over `before`: (IR before, IR after, log), the types relied on weighed."""
    after, log = pipeline.run_passes(before, options.passes)
    if options.weigh_types and pipeline.WEIGH_SPECIALIZATIONS \
            and any(assumption.of_type for assumption in after.assumptions):
        return pipeline.specialized_if_it_pays(before, after, log, options.passes)
    return before, after, log


def _front_end(source: Source, options: Options, resolve_objects: bool) -> ir.Function:
    """The IR the passes start from: built with the globals the options allow, with the
    argument types, static values and fixed objects the options give."""
    namespace = source.namespace if options.resolve_globals else None
    if namespace is not None and not options.guards:  # (no check on entry: none at calls)
        namespace = dataclasses.replace(namespace, frozen=True)
    function = frontend.build_function(source.function, namespace)
    function = dataclasses.replace(function, argument_types=dict(options.argument_types),
                                   fastmath=options.fastmath, resolve_objects=resolve_objects)
    if options.objects:
        function = _with_objects(function, options.objects)
    if options.static:
        function = pipeline.specialize(function, options.static)
    return function


def _with_objects(function: ir.Function, found: Mapping[str, object]) -> ir.Function:
    """`function` reading each name of `found` as the object it holds."""
    def read(expr: ir.Expr) -> ir.Expr:
        if isinstance(expr, ir.Name) and expr.id in found:
            return ir.Const(found[expr.id])
        return expr

    return function.with_body(map_statements(
        function.body, lambda stmt: map_statement_expressions(stmt, read)))


def _loaded(generated: codegen.Generated, shared_cells: Mapping[str, types.CellType],
            loading: Loading) -> tuple[types.FunctionType, str]:
    """The generated function, compiled in the original's world (with the cells of inlined
    closures, `shared_cells`), and its linecache name (forgotten with the function)."""
    closure = {**loading.scope.closure, **shared_cells}
    # pad to the public function's closure, which can grow but never shrink
    padding = loading.free_count - len(set(closure) | set(generated.bindings))
    scope = dataclasses.replace(loading.scope, closure=closure, bindings=generated.bindings,
                                padding=max(padding, 0))
    loaded, filename = loader.load(generated.source, scope, generated.lines, loading.tidy,
                                   (loading.recompile, loading.type_miss), generated.parsed)
    loaded.__doc__ = loading.doc
    weakref.finalize(loaded, loader.forget_source, filename)
    return loaded, filename
