"""The sim package keeps to its place: it imports rules and stories (never play or oracle), every
module is documented, declares ``__all__``, and is of a readable size."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

SIM = Path(__file__).resolve().parents[2] / "sim"
SOURCES = sorted(SIM.rglob("*.py"))
ALLOWED = {"sim", "rules", "stories", "pydantic", "matplotlib"}


def imported(path: Path) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((a.name, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append(("sim" if node.level else node.module or "", node.lineno))
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_imports_stay_in_the_layer(path: Path) -> None:
    for module, line in imported(path):
        top = module.split(".")[0]
        assert top in ALLOWED or top in sys.stdlib_module_names, f"{path.name}:{line} imports {module}"
        if top == "matplotlib":
            assert path.name == "show.py", f"{path.name}:{line}: matplotlib belongs to sim.show, lazily"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_modules_are_documented_and_declare_their_api(path: Path) -> None:
    name = ".".join(path.relative_to(SIM.parent).with_suffix("").parts).removesuffix(".__init__")
    module = importlib.import_module(name)
    assert module.__doc__ and module.__doc__.strip()
    assert isinstance(module.__all__, list)
    for public in module.__all__:
        assert hasattr(module, public), f"{name}.{public}"
    if path.name != "__init__.py":
        assert 100 <= len(path.read_text(encoding="utf-8").splitlines()) <= 400


def test_matplotlib_is_not_imported_by_the_simulator() -> None:
    import subprocess

    code = "import sys, sim; sim.simulate('the-milestones', 3); print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
