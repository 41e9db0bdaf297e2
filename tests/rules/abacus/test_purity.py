"""The rules core is pure (DESIGN.md): no I/O, no printing, no global random. What it may
import at all (the standard library and pydantic) is checked with every other layer in
tests/test_architecture.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[3] / "wyrd" / "rules"
SOURCES = sorted(RULES.rglob("*.py"))

# Standard-library modules that do I/O or reach outside the process.
FORBIDDEN = {
    "os", "sys", "pathlib", "io", "sqlite3", "socket", "subprocess", "shutil", "tempfile",
    "http", "urllib", "logging", "asyncio", "select", "signal", "ftplib", "smtplib",
    "glob", "fileinput", "pickle", "shelve", "dbm", "webbrowser", "threading",
    "multiprocessing", "ctypes", "time", "datetime", "secrets", "uuid",
}
FORBIDDEN_CALLS = {"print", "open", "input", "exec", "eval", "breakpoint", "__import__"}


def imports(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports (top-level name), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside rules
                found.append(("rules", node.lineno))
            else:
                found.append((node.module or "", node.lineno))
    return found


def test_sources_found() -> None:
    """DESIGN.md: rules/ holds dice.py and the abacus package (the scan sees them)."""
    names = {p.relative_to(RULES).as_posix() for p in SOURCES}
    assert {"dice.py", "errors.py", "__init__.py", "abacus/challenge.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_no_io_modules(path: Path) -> None:
    """DESIGN.md: no I/O in the rules core, and no random outside rules/dice.py
    (random is only ever used through a private Random there)."""
    for module, line in imports(path):
        top = module.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name}:{line} imports {module}"
        if top == "random":
            assert path == RULES / "dice.py", f"{path.name}:{line} imports random"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_no_print_or_open(path: Path) -> None:
    """DESIGN.md: no printing and no files in the rules core."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            assert name not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {name}"


def test_no_global_random_calls() -> None:
    """DESIGN.md: no global random: dice.py uses only random.Random instances."""
    tree = ast.parse((RULES / "dice.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        is_random = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "random"
        if is_random:
            assert isinstance(node, ast.Attribute)
            assert node.attr == "Random", f"dice.py:{node.lineno} uses random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            pytest.fail(f"dice.py:{node.lineno} imports names from random")


def test_scan_catches_offenders(tmp_path: Path) -> None:
    """The checks above would fail on an impure module (the scanner works)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom wyrd.play.engine.session import Session\nprint(open('x'))\n")
    mods = [m for m, _ in imports(bad)]
    assert mods == ["os", "wyrd.play.engine.session"]
    calls = {n.func.id for n in ast.walk(ast.parse(bad.read_text()))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert {"print", "open"} <= calls
