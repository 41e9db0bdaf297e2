"""The shape of the code (DESIGN.md, "Layout and the direction of imports"), checked by reading it.

One scan of every module under ``wyrd/`` checks, for every package alike:

- imports go one way, ``rules`` <- ``stories`` <- ``oracle`` <- ``play``; each package imports
  only the packages below it and the third-party libraries named for it here;
- the engine never reaches a front-end, prompt-toolkit lives only in the terminal front-end, and
  langchain only in the LLM narrator;
- no ruleset id is written outside that ruleset's own folders and the registry
  (``wyrd/rulesets``): a ruleset is a plug-in, so nothing else may name one;
- no package has an import cycle (lazy and type-checking imports count: a cycle is a cycle);
- every module says what it is for and declares its public API.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "wyrd"
SOURCES = sorted(ROOT.rglob("*.py"))
IDS = [p.relative_to(ROOT).as_posix() for p in SOURCES]

# What each part may import: Wyrd's own parts (the first tuple), then third-party libraries.
# ``wyrd.rulesets`` is the registry: plain descriptions that any layer may read.
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "wyrd.rules": (("wyrd.rules",), ("pydantic", "pydantic_core")),
    "wyrd.rulesets": (("wyrd.rulesets", "wyrd.installed"), ("pydantic", "pydantic_core")),
    "wyrd.stories": (("wyrd.rules", "wyrd.rulesets", "wyrd.stories", "wyrd.kept", "wyrd.deferred"),
                     ("pydantic", "pydantic_core", "yaml")),
    "wyrd.prompts": (("wyrd.rulesets", "wyrd.prompts", "wyrd.stories"),
                     ("pydantic", "pydantic_core", "yaml", "langchain_core")),
    "wyrd.oracle": (("wyrd.rules", "wyrd.rulesets", "wyrd.stories", "wyrd.prompts", "wyrd.oracle", "wyrd.kept"),
                    ("pydantic", "pydantic_core", "yaml", "langchain", "langchain_core", "platformdirs",
                     "confusable_homoglyphs")),
    "wyrd.sim": (("wyrd.rules", "wyrd.rulesets", "wyrd.stories", "wyrd.oracle", "wyrd.play.engine",
                  "wyrd.play.kits", "wyrd.sim"), ("pydantic", "pydantic_core", "matplotlib")),
    "wyrd.play.engine": (("wyrd.rules", "wyrd.rulesets", "wyrd.stories", "wyrd.oracle", "wyrd.prompts",
                          "wyrd.play.engine"), ("pydantic", "pydantic_core", "yaml", "platformdirs")),
    # A kit's odds command builds on the command line's shared argument types and printing.
    "wyrd.play.kits": (("wyrd.rules", "wyrd.rulesets", "wyrd.stories", "wyrd.oracle", "wyrd.play.engine",
                        "wyrd.play.kits", "wyrd.play.frontends.view", "wyrd.play.cli.args",
                        "wyrd.play.cli.output"), ("pydantic", "pydantic_core", "yaml")),
    "wyrd.play.frontends": (("wyrd.rules", "wyrd.rulesets", "wyrd.stories", "wyrd.oracle", "wyrd.play.engine",
                             "wyrd.play.kits", "wyrd.play.frontends"),
                            ("pydantic", "pydantic_core", "yaml", "prompt_toolkit", "platformdirs")),
    # The shared table's server and its seats' connections (issue 20): loaded by `wyrd host`/`join` alone.
    "wyrd.play.frontends.table": (("wyrd.rules", "wyrd.rulesets", "wyrd.stories", "wyrd.oracle", "wyrd.play.engine",
                                   "wyrd.play.kits", "wyrd.play.frontends", "wyrd.deferred"),
                                  ("pydantic", "pydantic_core", "yaml", "platformdirs", "starlette", "uvicorn",
                                   "websockets", "segno")),
    "wyrd.play.cli": (("wyrd",), ("pydantic", "pydantic_core", "yaml", "platformdirs")),
    "wyrd": (("wyrd",), ()),
    # Below every layer, standard library only: results kept between starts, what installed
    # packages declare (kept the same way), and libraries loaded where first used; the registry
    # reads the second, stories and oracle the first, the stories' YAML guard and the table's
    # libraries the third.
    "wyrd.kept": (("wyrd.kept",), ()),
    "wyrd.deferred": (("wyrd.deferred",), ()),
    "wyrd.installed": (("wyrd.installed", "wyrd.kept"), ()),
}
# Libraries that only one corner may use, whatever its layer allows.
ONLY_IN = {
    "prompt_toolkit": ("wyrd.play.frontends.terminal",),
    "langchain": ("wyrd.oracle.narrators.llm", "wyrd.oracle.narrators.llm_config"),
    "langchain_core": ("wyrd.oracle.narrators.llm", "wyrd.oracle.narrators.llm_config",
                       "wyrd.prompts"),
    "matplotlib": ("wyrd.sim.show",),
    "starlette": ("wyrd.play.frontends.table",),
    "uvicorn": ("wyrd.play.frontends.table",),
    "websockets": ("wyrd.play.frontends.table",),
    "segno": ("wyrd.play.frontends.table",),
}



def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


MODULES = {module_name(p): p for p in SOURCES}


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``path`` imports, lazily or not, made absolute; names imported from a
    package that are its submodules count as imports of those submodules."""
    here = module_name(path)
    package = here if is_package(path) else here.rpartition(".")[0]
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            yield source, node.lineno
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:
                    yield f"{source}.{alias.name}", node.lineno


def part_of(module: str) -> str:
    """The most specific entry of LAYERS that ``module`` belongs to."""
    best = max((k for k in LAYERS if module == k or module.startswith(k + ".")), key=len)
    return best


def inside(module: str, parents: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in parents)


def test_the_scan_sees_every_part() -> None:
    parts = {part_of(m) for m in MODULES}
    assert parts >= {"wyrd.rules", "wyrd.stories", "wyrd.oracle", "wyrd.prompts", "wyrd.sim",
                     "wyrd.play.engine", "wyrd.play.kits", "wyrd.play.frontends", "wyrd.play.cli"}


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_imports_go_one_way(path: Path) -> None:
    """DESIGN.md: rules <- stories <- oracle <- play; the engine never reaches a front-end."""
    here = module_name(path)
    own, libraries = LAYERS[part_of(here)]
    for module, line in imports(path):
        top = module.split(".")[0]
        where = f"{path.relative_to(ROOT)}:{line} imports {module}"
        if top == "wyrd":
            assert inside(module, own) or module == "wyrd", where
        elif top not in sys.stdlib_module_names:
            assert top in libraries, where
        if top in ONLY_IN:
            assert inside(here, ONLY_IN[top]), f"{where}, which belongs to {', '.join(ONLY_IN[top])} only"


@cache
def ruleset_ids() -> frozenset[str]:
    from wyrd.rulesets import rulesets

    return frozenset(r.id for r in rulesets())


def owner(path: Path) -> set[str]:
    """The rulesets whose own folders (or the registry) hold ``path``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[0] == "rulesets":
        return set(ruleset_ids())
    return {p for p in parts if p in ruleset_ids()}


def literals(path: Path) -> Iterator[tuple[str, int]]:
    """Ruleset ids written in ``path``: a string that is one, or one component of a dotted or
    slashed name (``"wyrd.rules.feat"``, ``"tables/feat.yaml"``), and imports of a ruleset's
    own modules (``from wyrd.rules.abacus import GameState``)."""
    for module, line in imports(path):
        for ident in set(module.split(".")) & ruleset_ids():
            yield ident, line
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = set(re.split(r"[./:\\]", node.value)) | {node.value}
            for ident in words & ruleset_ids():
                yield ident, node.lineno


def test_no_ruleset_is_named_outside_its_own_folders() -> None:
    found = set()
    for path in SOURCES:
        mine = owner(path)
        for ident, _line in literals(path):
            if ident not in mine:
                found.add(f"{path.relative_to(ROOT).as_posix()}:{ident}")
    assert not found, sorted(found)


def graph() -> dict[str, set[str]]:
    """Module -> the Wyrd modules it imports; importing one's own enclosing package is left out
    (Python has already begun it), but a package importing its own modules counts."""
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for target, _ in imports(path):
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != module and not module.startswith(target + "."):
                edges[module].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    found = [sorted(c) for c in cycles(graph())]
    assert not found, found


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("path", SOURCES, ids=IDS)
def test_modules_are_documented_and_declare_their_api(path: Path) -> None:
    if path.name == "__main__.py":
        assert tree(path).body and ast.get_docstring(tree(path)), f"{path} has no docstring"
        return
    module = importlib.import_module(module_name(path))
    assert module.__doc__ and module.__doc__.strip(), f"{module.__name__} has no docstring"
    if not is_package(path) and path.name != "__main__.py":
        assert isinstance(getattr(module, "__all__", None), list), f"{module.__name__} declares no __all__"
        for public in module.__all__:
            assert hasattr(module, public), f"{module.__name__}.{public}"


QUIET = ("wyrd.rules", "wyrd.play.engine", "wyrd.play.kits", "wyrd.stories", "wyrd.oracle")


@pytest.mark.parametrize("path", [p for p in SOURCES if inside(module_name(p), QUIET)],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_engine_and_the_kits_never_print(path: Path) -> None:
    """Issue 15 point 4: only a front-end decides what reaches a screen; the engine, the kits and
    the layers below them write to no stream."""
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"print", "input", "breakpoint"}, f"{path.name}:{node.lineno}"
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sys":
            assert node.attr not in {"stdout", "stderr", "stdin"}, f"{path.name}:{node.lineno} uses sys.{node.attr}"
