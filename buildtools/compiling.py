"""What the opt-in compiled build compiles, and whether it may fall back to pure Python.

``SPIELTISCH_COMPILE`` says what the user asked for (:func:`mode`):

- unset, empty, ``0``, ``no``, ``false``: pure Python, nothing compiled;
- ``1``, ``yes``, ``true``: compiled, or no install at all. Without a C compiler or mypyc, or
  when mypyc or the C compiler fails, the build stops with the reason (pip prints it);
- ``auto``: compiled if it can be, else pure Python; the fallback is said on the terminal pip
  runs in (pip shows a build's own output only with ``-v`` or when it fails) and in the wheel's
  name, which pip prints (``py3-none-any``, not ``cp311-...``).

``setup.py`` reads this module (as do the build backend, CI's check of an installed build and
the tests), so the list of compiled modules is written once: :func:`compiled_paths`.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path

COMPILE_FLAG = "SPIELTISCH_COMPILE"
ROOT = Path(__file__).resolve().parent.parent

OFF, ON, AUTO = "off", "on", "auto"
_MODES = {"": OFF, "0": OFF, "no": OFF, "false": OFF, "1": ON, "yes": ON, "true": ON}

COMPILED = ["spieltisch/core", "spieltisch/games", "spieltisch/session", "spieltisch/rl/encode"]
"""Packages compiled whole, less the files in :data:`LEFT_OUT` and the package inits."""
NEEDS_NUMPY = {"spieltisch/rl/encode"}
"""Packages mypyc can only type-check with numpy at hand (the build backend asks for it)."""
COMPILED_FILES = ["spieltisch/agents/ismcts.py"]
LEFT_OUT = {"spieltisch/core/errors.py", "spieltisch/core/kit.py"}
"""Left interpreted: the exceptions (a compiled class takes one built-in base) and the kits
(generic slotted dataclasses, which mypyc cannot build)."""
LEFT_OUT_NAMES = {"__init__.py", "words.py"}
"""Package inits and the games' words (plain text for people: nothing hot)."""
GROUP = "spieltisch.native"
"""The shared library holding every compiled module's code (``spieltisch/native__mypyc...``);
each module keeps a small extension of its own beside its ``.py`` file."""

GENERATED = ROOT / "build" / "mypyc-src"
"""Where the sources mypyc compiles are written (:func:`write_sources`): the package as it is,
with a written-out ``__init__`` in each value class."""
INIT_BASES = {"LegalCache", "State"}
"""Bases a value class may have (beside its module's own private classes of cache slots, named
``_...``) for its ``__init__`` to be written out; a ``HashOnce`` or a value base is left to
``core.fast.value`` at run time."""

FIELD_CALLS = {"field", "dataclasses.field"}

BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
"""setup.py commands that build extensions; the rest (``egg_info``, ``dist_info``, ``sdist``:
what pip runs to read the metadata) never compile."""


class CompileError(Exception):
    """Compiling was asked for and cannot be done; the message says why."""


def mode() -> str:
    """What ``SPIELTISCH_COMPILE`` asks for: :data:`OFF`, :data:`ON` or :data:`AUTO`."""
    raw = os.environ.get(COMPILE_FLAG, "").strip().lower()
    if raw == AUTO:
        return AUTO
    if raw not in _MODES:
        raise CompileError(
            f"{COMPILE_FLAG}={raw!r} is not understood: use 1 (compile, or fail), auto "
            "(compile if possible, else pure Python) or leave it unset (pure Python)"
        )
    return _MODES[raw]


def say(message: str) -> None:
    """Tell the person building: on standard error (pip shows it with ``-v`` or on failure)."""
    print(f"spieltisch build: {message}", file=sys.stderr, flush=True)


def say_on_terminal(message: str) -> None:
    """Tell the person building even where pip hides the build's output: on standard error
    and, where the build runs under a terminal, on that terminal."""
    say(message)
    try:
        with open("/dev/tty", "w", encoding="utf-8") as terminal:
            terminal.write(f"\nspieltisch build: {message}\n")
    except OSError:  # no terminal (CI, a service): the wheel's name says it
        pass


def compiled_paths(numpy: bool | None = None) -> list[str]:
    """The source files mypyc compiles, relative to the project, in a stable order
    (``numpy``: whether numpy is at hand, by default whether it can be imported)."""
    if numpy is None:
        numpy = importlib.util.find_spec("numpy") is not None
    paths = set(COMPILED_FILES)
    for package in COMPILED:
        if package in NEEDS_NUMPY and not numpy:
            continue
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if path.name not in LEFT_OUT_NAMES and relative not in LEFT_OUT:
                paths.add(relative)
    return sorted(paths)


def written_init(
    source: str, node: ast.ClassDef, others: set[str], eq: bool = True, once: bool = False
) -> list[str] | None:
    """The lines of an ``__init__`` for the value class ``node`` (of ``source``) as
    ``core.fast.value`` generates it at run time (each init field stored in order, then an
    empty legal-action cache or the class's ``__post_init__``), and with ``eq`` (``value``'s,
    not ``value(eq=False)``) its ``__eq__`` and ``__hash__`` as ``dataclasses`` generates them
    (the compared fields as a tuple; the same hash numbers), or ``None`` where all that is left
    to ``value``: a class with an ``__init__``, ``__eq__`` or ``__hash__`` of its own, a base
    that holds fields or a hash, or a field that is more than a plain default or
    ``field(init=False, ...)``.

    mypyc compiles written methods to C: a state is then built by a native call instead of
    the interpreted ``__init__`` that ``value`` generates, and hashed without the interpreter.
    ``others``: the value classes' names, which as bases would hold fields. ``once``: the class
    is a ``hash_once`` one (a ``HashOnce``), whose hash is worked out once and kept in its
    ``_hash`` slot (:data:`UNHASHED` until then), as ``core.fast.hash_once`` does."""
    bases = [ast.get_source_segment(source, base) or "" for base in node.bases]
    allowed = INIT_BASES | ({"HashOnce"} if once else set())
    if any(b in others or (b not in allowed and not b.startswith("_")) for b in bases):
        return None  # fields or a hash of a base, a generic base, an enum ...
    if node.keywords:
        return None
    own = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
    if own & {"__init__", "__eq__", "__hash__"}:
        return None
    params, stores, compared, hashed = [], [], [], []
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        annotation = ast.get_source_segment(source, item.annotation) or ""
        if annotation.startswith(("ClassVar", "typing.ClassVar")):
            continue
        name = item.target.id
        value = item.value
        is_field = isinstance(value, ast.Call) and ast.unparse(value.func) in FIELD_CALLS
        if is_field and isinstance(value, ast.Call):
            keywords = {k.arg: k.value for k in value.keywords}
            flags = {k: v.value for k, v in keywords.items() if isinstance(v, ast.Constant)}
            if value.args or flags.get("init", True) is not False:
                return None
            if {"default", "default_factory", "kw_only"} & set(keywords):
                return None
            if {"compare", "hash"} & set(keywords) - set(flags):
                return None  # a flag that is no constant
            compare = flags.get("compare", True) is True
            compared += [name] if compare else []
            hashed += [name] if flags.get("hash", compare) is True else []
            continue  # derived: set by __post_init__ (or a builder), not an argument
        compared.append(name)
        hashed.append(name)
        if value is not None and not _plain_default(value):
            return None  # a default made by a call (an option's field): value's own __init__
        default = "" if value is None else f" = {ast.get_source_segment(source, value)}"
        if not default and params and "=" in params[-1]:
            return None  # a field without a default after one with: dataclass refuses it
        params.append(f"{name}: {annotation}{default}")
        stores.append(f"self.{name} = {name}")
    if not params:
        return None
    if once:
        stores.append(f"self._hash = {UNHASHED}")
    if any(isinstance(i, ast.FunctionDef) and i.name == "__post_init__" for i in node.body):
        stores.append("self.__post_init__()")
    elif "LegalCache" in bases:
        stores.append("self._legal = None")
    indent = " " * node.body[0].col_offset
    lines = ["", f"{indent}def __init__(self, {', '.join(params)}) -> None:"]
    lines += [f"{indent}    {store}" for store in stores]
    if eq:
        lines += _written_eq_hash(node.name, indent, compared, hashed, once)
    elif once:
        return None
    return lines


def _written_eq_hash(
    name: str, indent: str, compared: list[str], hashed: list[str], once: bool
) -> list[str]:
    """The ``__eq__`` and ``__hash__`` of the value class ``name`` as ``dataclasses`` generates
    them (``once``: the hash kept in ``_hash`` after it is first worked out)."""
    mine = "".join(f"self.{n}, " for n in compared)
    theirs = "".join(f"other.{n}, " for n in compared)
    lines = [
        "",
        f"{indent}def __eq__(self, other: object) -> bool:",
        f"{indent}    if type(other) is {name}:",
        f"{indent}        return ({mine}) == ({theirs})",
        f"{indent}    return NotImplemented",
        "",
        f"{indent}def __hash__(self) -> int:",
    ]
    fields_hash = f"hash(({''.join(f'self.{n}, ' for n in hashed)}))"
    if not once:
        return [*lines, f"{indent}    return {fields_hash}"]
    return [
        *lines,
        f"{indent}    try:",
        f"{indent}        kept = self._hash",
        f"{indent}    except AttributeError:  # a copy, made without __init__",
        f"{indent}        kept = {UNHASHED}",
        f"{indent}    if kept == {UNHASHED}:",
        f"{indent}        kept = self._hash = {fields_hash}",
        f"{indent}    return kept",
    ]


UNHASHED = -1
"""What a written ``hash_once`` class keeps in ``_hash`` until its hash is first asked for: no
hash is ever -1 (CPython turns it into -2), and a native class would raise (slowly) on a slot
never set."""


def _plain_default(node: ast.expr) -> bool:
    """Whether a field's default is a constant, a name or a tuple of those (nothing that a
    call makes, such as a ``dataclasses.field``)."""
    if isinstance(node, ast.Tuple):
        return all(_plain_default(item) for item in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _plain_default(node.operand)
    return isinstance(node, ast.Constant | ast.Name | ast.Attribute)


def _value_classes(tree: ast.Module) -> list[tuple[ast.ClassDef, bool, ast.expr | None]]:
    """The value classes of ``tree``, each with its ``eq`` (``False`` for ``value(eq=False)``)
    and its ``hash_once`` decorator, if it has one."""
    found = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        names = {d.id: d for d in node.decorator_list if isinstance(d, ast.Name)}
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if isinstance(target, ast.Name) and target.id == "value":
                flags = {k.arg: k.value for k in call.keywords} if call else {}
                eq = flags.get("eq")
                plain = not (isinstance(eq, ast.Constant) and eq.value is False)
                found.append((node, plain, names.get("hash_once")))
    return found


def with_written_inits(source: str) -> tuple[str, int]:
    """``source`` with an ``__init__`` (and its ``__eq__`` and ``__hash__``) written into each
    value class that takes one (:func:`written_init`), and how many were written. A
    ``hash_once`` class whose hash is written out loses that decorator, which mypyc does not
    know (a class under it could not be native); each written class, and the module's own
    private base classes under it, are marked as :data:`WRITTEN_ATTR` says."""
    tree = ast.parse(source)
    classes = _value_classes(tree)
    others = {node.name for node, _, _ in classes}
    edits: list[tuple[int, int, list[str]]] = []  # (line index, 1 delete / 0 insert, lines)
    marked: set[str] = set()
    for node, eq, once in classes:
        init = written_init(source, node, others, eq, once is not None)
        if init is None or node.end_lineno is None:
            continue
        edits.append((node.end_lineno, 0, init))
        if once is not None:  # its hash is written out: mypyc then makes the class native
            edits.append((once.lineno - 1, 1, []))
        marked.add(node.name)
        marked.update(ast.get_source_segment(source, b) or "" for b in node.bases)
    decorator = f"@{WRITTEN_ATTR}(allow_interpreted_subclasses=True)"
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in marked:
            top = min([d.lineno for d in node.decorator_list] + [node.lineno]) - 1
            edits.append((top, 0, [decorator]))
    if edits:  # after the docstring and the __future__ imports, before the classes
        first = next(
            (n for n in tree.body if not _is_docstring(n) and not _is_future(n)), tree.body[-1]
        )
        edits.append(
            (first.lineno - 1, 0, [f"from mypy_extensions import mypyc_attr as {WRITTEN_ATTR}"])
        )
    lines = source.splitlines()
    for index, delete, added in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        if delete:
            del lines[index]
        else:
            lines[index:index] = added
    written = sum(1 for node, _, _ in classes if node.name in marked)
    return "\n".join(lines) + "\n", written


WRITTEN_ATTR = "_written_mypyc_attr"
"""The name under which a written module imports ``mypyc_attr``. A native class with an
``__init__`` of its own is built by mypyc's ``__new__`` through that ``__init__``, but copies,
pickles and ``core.fast.builder`` make an instance with ``cls.__new__(cls)`` and then set its
fields, as in the pure build: a class marked ``allow_interpreted_subclasses`` keeps Python's
way (``__new__`` without ``__init__``; ``serializable`` would too, but then a call of the class
from interpreted code never runs ``__init__``), and compiled code still builds it by a direct
call of its native ``__init__``."""


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def _is_future(node: ast.stmt) -> bool:
    return isinstance(node, ast.ImportFrom) and node.module == "__future__"


FINAL_ALIAS = "_written_Final"
"""The name under which a written module imports ``typing.Final``."""
NOT_CONSTANTS = {"TypeVar", "ParamSpec", "TypeVarTuple", "NewType", "NamedTuple", "TypedDict"}
"""Calls whose result is a type-checker construct, never a constant to mark ``Final``."""


def _bound_names(tree: ast.Module) -> dict[str, int]:
    """How often each name of ``tree`` is bound anywhere (assigned, deleted, declared
    ``global``, imported, defined), in any scope."""
    counts: dict[str, int] = {}

    def bind(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1

    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bind(node.id)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                bind(name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bind(node.name)
    return counts


def _annotation_names(tree: ast.Module) -> set[str]:
    """Every name used in an annotation of ``tree`` (a type alias among them)."""
    annotations: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign | ast.arg) and node.annotation is not None:
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            annotations.append(node.returns)
    names: set[str] = set()
    for annotation in annotations:
        for part in ast.walk(annotation):
            if isinstance(part, ast.Name):
                names.add(part.id)
            elif isinstance(part, ast.Constant) and isinstance(part.value, str):
                try:
                    names |= {
                        n.id for n in ast.walk(ast.parse(part.value)) if isinstance(n, ast.Name)
                    }
                except SyntaxError:
                    continue
    return names


def _is_constant_name(name: str) -> bool:
    """``LIMIT``, ``_PLAY``, ``_seat``: a constant's or a function's name, not a class's or a
    type alias's (``Counts``) nor a dunder's."""
    bare = name.lstrip("_")
    if not bare or (name.startswith("__") and name.endswith("__")):
        return False
    return bare.isupper() or not bare[0].isupper()


def _constant_target(node: ast.stmt) -> tuple[ast.Name, ast.expr] | None:
    """The name a module-level statement binds to a value, and the value, if it is such a
    statement and not already ``Final``, a ``ClassVar`` or a ``TypeAlias``."""
    if isinstance(node, ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return None
        value, target = node.value, node.targets[0]
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        if not isinstance(node.target, ast.Name):
            return None
        head = (
            node.annotation.value if isinstance(node.annotation, ast.Subscript) else node.annotation
        )
        if ast.unparse(head).split(".")[-1] in {"Final", "ClassVar", "TypeAlias"}:
            return None
        value, target = node.value, node.target
    else:
        return None
    if isinstance(value, ast.Call) and ast.unparse(value.func).split(".")[-1] in NOT_CONSTANTS:
        return None
    return target, value


def _holds_floats(node: ast.expr, floats: set[str]) -> bool:
    """Whether the tuple display ``node`` holds a float (a literal, or a name of ``floats``),
    at any depth. mypyc (2.4, as pinned) keeps a ``Final`` tuple unboxed, and one whose first
    item is a float then reads as never set ("value for final name ... was not set")."""
    for part in ast.walk(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, float):
            return True
        if isinstance(part, ast.Name) and part.id in floats:
            return True
    return False


def _float_names(tree: ast.Module) -> set[str]:
    """The module-level names of ``tree`` bound to a float literal (or its negation)."""
    names: set[str] = set()
    for node in tree.body:
        found = _constant_target(node)
        if found is None:
            continue
        target, value = found
        if isinstance(value, ast.UnaryOp):
            value = value.operand
        if isinstance(value, ast.Constant) and isinstance(value.value, float):
            names.add(target.id)
    return names


def with_final_constants(source: str) -> tuple[str, int]:
    """``source`` with each module-level constant marked ``Final``, and how many were.

    mypyc reads a module-level name from the module's dictionary at every use (a lookup by
    string: the enum members a module aliases, its tables, its cached constructors), unless
    the name is ``Final``: then it keeps the value in a C static (an unboxed one for an
    ``int``). A constant here is a name bound once in the whole module, by a plain or
    annotated assignment at its top level, named as a constant or a function is (not as a
    class or type alias) and never used in an annotation; a tuple display holding floats is
    left alone (see :func:`_holds_floats`)."""
    tree = ast.parse(source)
    bound = _bound_names(tree)
    typed = _annotation_names(tree)
    floats = _float_names(tree)
    edits: list[tuple[int, int, str]] = []  # (line, column, text inserted there)
    marked = 0
    for node in tree.body:
        found = _constant_target(node)
        if found is None:
            continue
        target, value = found
        if bound.get(target.id) != 1 or target.id in typed or not _is_constant_name(target.id):
            continue
        if isinstance(value, ast.Tuple) and _holds_floats(value, floats):
            continue
        if isinstance(node, ast.AnnAssign):
            annotation = node.annotation
            end_line, end_col = annotation.end_lineno, annotation.end_col_offset
            assert end_line is not None and end_col is not None
            edits.append((end_line, end_col, "]"))
            edits.append((annotation.lineno, annotation.col_offset, f"{FINAL_ALIAS}["))
        else:
            end_col = target.end_col_offset
            assert end_col is not None
            edits.append((target.lineno, end_col, f": {FINAL_ALIAS}"))
        marked += 1
    if not edits:
        return source, 0
    lines = source.splitlines()
    for line, column, text in sorted(edits, reverse=True):
        lines[line - 1] = lines[line - 1][:column] + text + lines[line - 1][column:]
    first = next((n for n in tree.body if not _is_docstring(n) and not _is_future(n)), None)
    at = first.lineno - 1 if first is not None else len(lines)
    lines[at:at] = [f"from typing import Final as {FINAL_ALIAS}"]
    return "\n".join(lines) + "\n", marked


def write_sources(paths: list[str]) -> list[str]:
    """Write the package into :data:`GENERATED` (every ``.py`` file, so that mypy finds every
    import where it finds the compiled ones), with :func:`with_written_inits` and
    :func:`with_final_constants` applied to the compiled ``paths``; return their paths there,
    relative to the project."""
    if GENERATED.exists():
        shutil.rmtree(GENERATED)
    compiled = set(paths)
    written = finals = 0
    for path in sorted((ROOT / "spieltisch").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if relative in compiled:
            text, count = with_written_inits(text)
            text, marked = with_final_constants(text)
            written += count
            finals += marked
        target = GENERATED / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    say(f"wrote out the __init__ of {written} value classes for mypyc to compile")
    say(f"marked {finals} module-level constants Final")
    return [(GENERATED / p).relative_to(ROOT).as_posix() for p in paths]


def module_name(path: str) -> str:
    """``spieltisch/core/game.py`` -> ``spieltisch.core.game``."""
    return path.removesuffix(".py").replace("/", ".")


def have_compiler() -> bool:
    """Whether the C compiler Python was built with (or ``$CC``) is on the path."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(command.split()[0]) is not None


def building(argv: list[str]) -> bool:
    """Whether the setup.py command line ``argv`` builds extensions."""
    return any(arg in BUILD_COMMANDS for arg in argv[1:])


def mypyc_extensions() -> list[object]:
    """mypyc's extension modules for :func:`compiled_paths`; :class:`CompileError` with the
    reason if mypyc or a compiler is missing or mypyc fails (a type error, say)."""
    if not have_compiler():
        raise CompileError("no C compiler found (install gcc, or set CC)")
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 - lazy: only this build needs it
    except ImportError as error:
        raise CompileError(f"mypyc is not installed (it comes with mypy): {error}") from None
    numpy = importlib.util.find_spec("numpy") is not None
    if not numpy:
        say("numpy is not installed: the RL encoders stay interpreted")
    paths = compiled_paths(numpy)
    say(f"compiling {len(paths)} modules with mypyc")
    sources = write_sources(paths)
    level = os.environ.get("MYPYC_OPT_LEVEL", "3")  # 0 builds fastest, to try a change
    options = [
        "--config-file=",  # not pyproject's: it reads COMPILED_BUILD as always false
        "--always-true",
        "COMPILED_BUILD",  # mypyc reads core.fast's compiled branch (value as a dataclass)
        # Modules that are not compiled are only read for their types: their own imports
        # (gymnasium, fastapi: extras the build need not have) are not the build's concern.
        "--follow-imports=silent",
    ]
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypycify takes paths relative to the project
    try:
        return list(
            mypycify([*options, *sources], opt_level=level, debug_level="0", group_name=GROUP)
        )
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        raise CompileError(f"mypyc failed ({error!r}); its messages are above") from None
    finally:
        os.chdir(cwd)


def extensions(argv: list[str]) -> list[object]:
    """The extension modules setup.py builds for the command line ``argv``: none unless asked
    for and building; :class:`SystemExit` with the reason when compiling was asked for
    (``1``) and cannot be done; none, said on the terminal, under ``auto``."""
    try:
        asked = mode()
    except CompileError as error:
        raise SystemExit(f"spieltisch build: {error}") from None
    if asked == OFF or not building(argv):
        return []
    try:
        return mypyc_extensions()
    except CompileError as error:
        fail(asked, str(error))
        return []


def fail(asked: str, reason: str) -> None:
    """Compiling failed for ``reason``: stop the build (asked for with ``1``) or fall back to
    pure Python and say so (``auto``)."""
    if asked == AUTO:
        say_on_terminal(f"{reason}: installing pure Python ({COMPILE_FLAG}=auto)")
        return
    raise SystemExit(
        f"spieltisch build: {reason}.\nThe compiled build was asked for ({COMPILE_FLAG}=1); "
        f"set {COMPILE_FLAG}=auto to fall back to pure Python instead, or leave it unset."
    )
