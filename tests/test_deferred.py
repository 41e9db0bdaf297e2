"""Libraries put in place unloaded (``wyrd.deferred``): the module loads at its first attribute, and
its file is known before that (issue 21, point 2: a start whose files were kept never loads PyYAML);
a library imported with a stand-in for another loads that other only when it calls it (a start
never loads ``importlib.metadata``, which pydantic's plugin loader imports and calls only with plugins on)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wyrd.deferred import deferred, origin, stood_in

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


_STOOD_IN = """
import sys
from wyrd.deferred import stood_in
with stood_in("slow_lib", ("double",)):
    import user_lib
print("slow_lib" in sys.modules, "LOADED" in sys.modules)
print(user_lib.double(21), "LOADED" in sys.modules, type(sys.modules["slow_lib"].double).__name__)
import slow_lib
print(slow_lib.double is sys.modules["slow_lib"].double, user_lib.double(2))
"""


def test_a_stand_in_loads_the_real_module_only_when_its_function_is_called(tmp_path: Path) -> None:
    (tmp_path / "slow_lib.py").write_text("import sys\nsys.modules['LOADED'] = sys\ndef double(x):\n"
                                          "    return 2 * x\n", encoding="utf-8")
    (tmp_path / "user_lib.py").write_text("from slow_lib import double\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _STOOD_IN], capture_output=True, text=True, check=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{tmp_path}:{ROOT}"})
    # gone from sys.modules once the importer is imported; the real module is loaded by the first call,
    # and every later import gets it
    assert done.stdout.splitlines() == ["False False", "42 True function", "True 4"]


_STOOD_IN_FOR_MORE = """
import sys
from wyrd.deferred import stood_in
with stood_in("slow_lib", ("double",)):
    import user_lib
    import other_user
print(type(user_lib.double).__name__, other_user.triple(2), sys.modules["slow_lib"].__name__, "LOADED" in sys.modules)
print(user_lib.double(2), hasattr(sys.modules["slow_lib"], "__path__"))
"""


def test_a_stand_in_asked_for_anything_else_loads_the_real_module_then(tmp_path: Path) -> None:
    """Another importer (another thread's, say) that wants more than the stood-in functions gets the
    real module's, only sooner; what the first importer took keeps working."""
    (tmp_path / "slow_lib.py").write_text("import sys\nsys.modules['LOADED'] = sys\ndef double(x):\n"
                                          "    return 2 * x\ndef triple(x):\n    return 3 * x\n", encoding="utf-8")
    (tmp_path / "user_lib.py").write_text("from slow_lib import double\n", encoding="utf-8")
    (tmp_path / "other_user.py").write_text("from slow_lib import triple\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _STOOD_IN_FOR_MORE], capture_output=True, text=True, check=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{tmp_path}:{ROOT}"})
    assert done.stdout.splitlines() == ["function 6 slow_lib True", "4 False"]


def test_a_module_already_imported_is_not_stood_in_for() -> None:
    import json

    with stood_in("json", ("dumps",)):
        assert sys.modules["json"] is json
    assert sys.modules["json"] is json


_START = """
import sys
from wyrd.play.cli.main import main
assert main(sys.argv[1:]) == 0
print("importlib.metadata" in sys.modules)
from pydantic.plugin import _loader
print(sorted(point.name for point in _loader.entry_points(group="console_scripts") if point.name == "wyrd"))
print("importlib.metadata" in sys.modules)
"""


@pytest.mark.parametrize("story", ["hollow-fair", "the-drowned-bell", "lantern-at-gull-reach", "harrow-mere"])
def test_a_start_never_loads_importlib_metadata(story: str, tmp_path: Path) -> None:
    """Issue 21, point 2: importlib.metadata (with email, zipfile and csv, about 28 M instructions) was
    imported at a start's first validator by pydantic's plugin loader, which calls it only when plugins
    are on. The loader's ``entry_points`` still reads the installed packages when it is called."""
    script = tmp_path / "status.txt"
    script.write_text("status\n", encoding="utf-8")

    def start(save: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", _START, "play", "--story", story, "--seed", "1", "--save",
                               str(tmp_path / save), "--script", str(script)], capture_output=True, text=True,
                              timeout=120, check=True, cwd=ROOT,
                              env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(tmp_path), "WYRD_MODEL": "table"})
        return done.stdout.splitlines()[-3:]

    start("a.wyrd")  # the first start finds out what the installed packages declare, and keeps it
    assert start("b.wyrd") == ["False", "['wyrd']", "True"]


def test_what_every_command_does_before_its_own_work_imports_no_pydantic(tmp_path: Path) -> None:
    """Issue 21, point 2: pydantic's plugin loader is imported with its stand-in where a game is set
    up, not for every command: ``wyrd join`` and ``wyrd host``'s first page never import pydantic."""
    code = ("import contextlib, io, sys\n"
            "from wyrd.play.cli.main import main\n"
            "for command in ('join', 'host'):\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        assert main([command, '--help']) == 0\n"
            "print(sorted(k for k in sys.modules if k.split('.')[0] == 'pydantic'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True,
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(tmp_path), "WYRD_MODEL": "table"})
    assert done.stdout.strip() == "[]"
