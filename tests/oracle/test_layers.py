"""The oracle package keeps to its layer (DESIGN.md): stdlib, pydantic, yaml and rules only,
never play; each module documented, with __all__, and of a readable size."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

ORACLE = Path(__file__).resolve().parents[2] / "oracle"
SOURCES = sorted(ORACLE.rglob("*.py"))
ALLOWED = {"oracle", "rules", "stories", "pydantic", "pydantic_core", "yaml", "prompts"}
# The LLM narrator's own modules, and only they, reach langchain (lazily) and the config folder.
LLM_ONLY = {"langchain", "langchain_core", "platformdirs"}


def imported(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append(("oracle" if node.level else node.module or "", node.lineno))
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ORACLE).as_posix())
def test_imports_stay_in_the_layer(path: Path) -> None:
    allowed = ALLOWED | LLM_ONLY if path.name.startswith("llm") else ALLOWED
    for module, line in imported(path):
        top = module.split(".")[0]
        assert top in allowed or top in sys.stdlib_module_names, f"{path.name}:{line} imports {module}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ORACLE).as_posix())
def test_modules_are_documented_and_declare_their_api(path: Path) -> None:
    name = ".".join(path.relative_to(ORACLE.parent).with_suffix("").parts).removesuffix(".__init__")
    module = importlib.import_module(name)
    assert module.__doc__ and module.__doc__.strip()
    assert isinstance(module.__all__, list)
    for public in module.__all__:
        assert hasattr(module, public), f"{name}.{public}"
    if path.name != "__init__.py":
        assert 90 <= len(path.read_text(encoding="utf-8").splitlines()) <= 400


def test_no_global_random_in_the_oracle() -> None:
    for path in SOURCES:
        assert "import random" not in path.read_text(encoding="utf-8"), path
