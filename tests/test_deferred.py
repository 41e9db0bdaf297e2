"""Libraries put in place unloaded (``wyrd.deferred``): the module loads at its first attribute, and
its file is known before that (issue 21, point 2: a start whose files were kept never loads PyYAML)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wyrd.deferred import deferred, origin

ROOT = Path(__file__).resolve().parents[1]

_LATE = """
import sys
from wyrd.deferred import deferred, origin
print(origin("late_package").endswith("__init__.py"), "late_package" in sys.modules)
module = deferred("late_package")
print(type(module).__name__, "late_package.part" in sys.modules, origin("late_package").endswith("__init__.py"))
print(module.VALUE, type(module).__name__, "late_package.part" in sys.modules)
print(deferred("late_package") is module)
"""


def test_a_deferred_module_runs_its_code_at_its_first_attribute(tmp_path: Path) -> None:
    package = tmp_path / "late_package"
    package.mkdir()
    (package / "__init__.py").write_text("from late_package.part import VALUE\n", encoding="utf-8")
    (package / "part.py").write_text("VALUE = 42\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _LATE], capture_output=True, text=True, check=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{tmp_path}:{ROOT}"})
    assert done.stdout.splitlines() == ["True False", "_LazyModule False True", "42 module True", "True"]


def test_a_module_already_imported_is_left_as_it_is() -> None:
    import json

    assert deferred("json") is json
    assert origin("json") == json.__file__


def test_no_such_module_is_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError, match="no_such_module_here"):
        deferred("no_such_module_here")
    assert "no_such_module_here" not in sys.modules
    assert origin("no_such_module_here") is None
