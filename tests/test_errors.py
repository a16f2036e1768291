"""One exception root, really: every exception class the scorekeeper package defines descends from
``ScorekeeperError`` and from a built-in more specific than ``Exception`` (so callers that do not
know scorekeeper can catch ``ValueError``, ``OSError``, ... as they would expect).

Every ``.py`` file under ``scorekeeper/`` is read and imported (none is left out: an import that
fails fails the test), and each class statement in it is looked at, private and nested ones too;
a class defined inside a function is judged by its base classes. A new stray class fails here.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import scorekeeper
from scorekeeper.errors import ScorekeeperError

PACKAGE = Path(scorekeeper.__file__).parent
# Runs the command line when imported (``python -m scorekeeper``), so it is read, not imported.
RUNS_WHEN_IMPORTED = {"scorekeeper.__main__"}
TOO_GENERAL = {BaseException, Exception, object}


@dataclass(frozen=True)
class Found:
    """One class statement: where it is, and its base classes in method resolution order."""

    where: str  # module:qualified name (``<locals>`` for a class made inside a function)
    mro: tuple[type, ...]


def modules() -> list[tuple[str, Path]]:
    """Every module of the package and its file, from the files (no package list that could
    miss one)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    return out


def _dotted(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Subscript):  # Generic[T], Protocol[T]: the class is the value
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else [*head, node.attr]
    return None


def _resolve(node: ast.expr, module: ModuleType) -> object:
    """The object a base-class expression of a class made inside a function names."""
    parts = _dotted(node)
    if parts is None:
        raise LookupError(f"cannot read the base class {ast.unparse(node)!r}")
    head, *rest = parts
    if hasattr(module, head):
        obj = getattr(module, head)
    elif hasattr(builtins, head):
        obj = getattr(builtins, head)
    else:  # a module imported inside the function (``import uvicorn``)
        obj = importlib.import_module(head)
    for name in rest:
        obj = getattr(obj, name)
    return obj


def _local_mro(node: ast.ClassDef, module: ModuleType) -> tuple[type, ...]:
    mro: list[type] = []
    for base in node.bases:
        obj = _resolve(base, module)
        if not isinstance(obj, type):
            raise LookupError(f"the base class {ast.unparse(base)!r} is not a class")
        mro.extend(c for c in obj.__mro__ if c not in mro)
    return tuple(mro) or (object,)


def classes_in(module: ModuleType, source: str) -> list[Found]:
    """Each class statement in ``source`` (the text of ``module``), found in the imported
    module by its qualified name, or, made inside a function, judged by its bases."""
    out: list[Found] = []

    def visit(node: ast.AST, path: tuple[str, ...], local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                qual = (*path, child.name)
                where = f"{module.__name__}:{'.'.join(qual)}"
                obj: object = module
                for name in qual:
                    obj = getattr(obj, name, None)
                if not local and isinstance(obj, type):
                    out.append(Found(where, obj.__mro__))
                else:  # inside a function, or only under ``if TYPE_CHECKING``
                    out.append(Found(where, _local_mro(child, module)))
                visit(child, qual, local)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                name = getattr(child, "name", "<lambda>")
                visit(child, (*path, name, "<locals>"), True)
            else:
                visit(child, path, local)

    visit(ast.parse(source), (), False)
    return out


def what_is_wrong(found: Found) -> str | None:
    """Why this class breaks the rule, or None: it is no exception, or it keeps the rule."""
    if BaseException not in found.mro:
        return None
    if found.mro[0] is ScorekeeperError:
        return None  # the root itself
    if ScorekeeperError not in found.mro:
        return f"{found.where} does not descend from ScorekeeperError"
    if not any(c.__module__ == "builtins" and c not in TOO_GENERAL for c in found.mro):
        return (
            f"{found.where} also needs a built-in exception more specific than Exception "
            "(ValueError, LookupError, OSError, RuntimeError, ...)"
        )
    return None


@functools.cache  # read and imported once per test process
def every_class() -> tuple[Found, ...]:
    found: list[Found] = []
    for name, file in modules():
        source = file.read_text(encoding="utf-8")
        if name in RUNS_WHEN_IMPORTED:
            tree = ast.parse(source)
            assert not any(isinstance(n, ast.ClassDef) for n in ast.walk(tree)), (
                f"{name} runs the command line when imported, so this test cannot import it: "
                "define classes in another module"
            )
            continue
        found.extend(classes_in(importlib.import_module(name), source))
    return tuple(found)


def test_every_exception_class_descends_from_the_root_and_a_built_in() -> None:
    found = every_class()
    wheres = {f.where for f in found}
    # The walk reaches subpackages, private classes and classes made inside functions.
    for expected in (
        "scorekeeper.errors:ConfigError",
        "scorekeeper.service.tokens:Forbidden",
        "scorekeeper.commands.table.client:ConsoleError",
        "scorekeeper.core.script_match:MatcherError",
        "scorekeeper.service.watchers:Ended",
        "scorekeeper.api.limits:_TooLarge",
        "scorekeeper.service.backups:_Stopped",
        "scorekeeper.api.server:run_server.<locals>._Server",
    ):
        assert expected in wheres, f"the walk did not find {expected}"
    problems = [p for p in map(what_is_wrong, found) if p]
    assert not problems, "\n".join(problems)


def test_classes_made_at_run_time_keep_the_rule_too() -> None:
    """A second net: every exception class Python knows of that a scorekeeper module made."""
    every_class()  # imports every module
    seen: set[type] = set()
    todo: list[type] = [BaseException]
    while todo:
        subs: list[type] = todo.pop().__subclasses__()
        for sub in subs:
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    ours = [c for c in seen if c.__module__.split(".")[0] == "scorekeeper"]
    assert ScorekeeperError in ours
    problems = [what_is_wrong(Found(f"{c.__module__}:{c.__qualname__}", c.__mro__)) for c in ours]
    assert not [p for p in problems if p], "\n".join(p for p in problems if p)


def test_the_check_catches_a_stray_class() -> None:
    module = ModuleType("stray")  # not under scorekeeper: the run-time net must not see it
    source = """
class Stray(Exception):
    pass

class RootOnly(ScorekeeperError):
    pass

class Fine(ScorekeeperError, ValueError):
    class Inner(KeyError):
        pass

def make():
    class Local(ConnectionError):
        pass
    class NotAnError(dict):
        pass
"""
    module.ScorekeeperError = ScorekeeperError  # type: ignore[attr-defined]
    exec(compile(source, "<stray>", "exec"), module.__dict__)
    found = classes_in(module, source)
    assert [f.where.split(":")[1] for f in found] == [
        "Stray",
        "RootOnly",
        "Fine",
        "Fine.Inner",
        "make.<locals>.Local",
        "make.<locals>.NotAnError",
    ]
    wrong = {f.where.split(":")[1]: what_is_wrong(f) for f in found}
    assert wrong["Fine"] is None and wrong["make.<locals>.NotAnError"] is None
    for stray in ("Stray", "Fine.Inner", "make.<locals>.Local"):
        assert "does not descend from ScorekeeperError" in str(wrong[stray]), stray
    assert "more specific than Exception" in str(wrong["RootOnly"])


def made_names() -> set[str]:
    """The names of the classes the package raises or builds (``raise X``, ``X(...)``)."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            target = (
                node.exc
                if isinstance(node, ast.Raise)
                else (node.func if isinstance(node, ast.Call) else None)
            )
            if isinstance(target, ast.Call):
                target = target.func
            if isinstance(target, ast.Name):
                names.add(target.id)
            elif isinstance(target, ast.Attribute):
                names.add(target.attr)
    return names


def test_every_exception_class_is_raised_or_is_a_base() -> None:
    """An error class nothing raises promises callers something that never happens (a refusal
    is an outcome, a bad frame is counted and dropped): each is raised, or groups others."""
    found = [f for f in every_class() if BaseException in f.mro]
    bases = {c for f in found for c in f.mro[1:]}
    made = made_names()
    idle = [f.where for f in found if f.mro[0] not in bases and f.mro[0].__name__ not in made]
    assert not idle, f"never raised nor a base of another: {idle}"
    assert "IllegalPlay" not in made and "FrameError" not in made
