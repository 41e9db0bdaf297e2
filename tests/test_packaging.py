"""Installed, Wyrd claims one import name, ``wyrd``, and plays from the wheel (issue 15, point 6).

The test builds the wheel from a copy of the sources (so the checkout gets no build
folders), reads which top-level names it installs, installs it into a fresh
virtual environment outside the checkout, and plays the README's quick start there
from a folder of its own. Everything is offline: the wheel is built with the
setuptools of the developer tools (``--no-build-isolation``), installed without its
dependencies, and the new environment sees the project environment's libraries
through a path file that adds their folder and nothing else (no Wyrd of the
checkout: that folder's own path files, the editable install among them, are not
run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
QUICK_START = "pc add Ada body=5 mind=5 soul=5\nscene\nquit\n"


def _run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, **kwargs)  # type: ignore[call-overload]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built offline from a copy of what the distribution is made of."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "wyrd", source / "wyrd", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                  "--no-cache-dir", "--quiet", "-w", str(work / "dist"), str(source)], cwd=work)
    assert built.returncode == 0, built.stderr
    (found,) = (work / "dist").glob("wyrd-*.whl")
    return found


def _top_level(names: list[str]) -> set[str]:
    return {name.split("/")[0] for name in names}


def test_the_wheel_installs_one_import_name(wheel: Path) -> None:
    """Issue 15 point 6: only ``wyrd`` (and its metadata), no ``rules``, ``play``, ``sim`` ..."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (info,) = {n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info")}
        record = archive.read(f"{info}/RECORD").decode()
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    assert _top_level(names) == {"wyrd", info}
    assert _top_level([line.split(",")[0] for line in record.splitlines() if line]) == {"wyrd", info}
    # The four bundled rulesets come in through the same door as anyone's.
    assert "[wyrd.rulesets]" in entry_points
    for ident in ("abacus", "wolden", "feat", "lots"):
        assert f"{ident} = wyrd.rulesets.{ident}:RULESET" in entry_points
    assert "wyrd = wyrd.play.cli.main:main" in entry_points
    # The data the game reads at run time travels with the code.
    assert "wyrd/oracle/tables/twists.yaml" in names
    assert any(n.startswith("wyrd/prompts/") and n.endswith(".yaml") for n in names)
    assert any(n.startswith("wyrd/stories/") and n.endswith(".yaml") for n in names)
    # the firewall's phrasings and word lists (issue 19, point 2)
    assert {"wyrd/oracle/narrators/words/outcomes.yaml", "wyrd/oracle/narrators/words/en.yaml"} <= set(names)


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the checkout with the wheel installed."""
    home = tmp_path_factory.mktemp("venv") / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", str(home)], check=True)
    python = home / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     check=True).stdout.strip())
    before = set(os.listdir(site))
    installed = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                      "--no-cache-dir", "--quiet", str(wheel)], cwd=home.parent)
    assert installed.returncode == 0, installed.stderr
    new = set(os.listdir(site)) - before
    assert {n for n in new if not n.endswith(".dist-info")} == {"wyrd"}
    # The libraries Wyrd needs, from the project environment: a plain path line (the folder's own
    # path files, the editable install of the checkout among them, are not processed).
    (site / "project-libraries.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return home


def _clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return {**env, "WYRD_HOME": str(tmp), "PATH": os.defpath}


def test_wyrd_comes_from_the_wheel(venv: Path, tmp_path: Path) -> None:
    """The fresh environment imports ``wyrd`` from what the wheel installed, not from the checkout."""
    shown = _run([str(venv / "bin" / "python"), "-c", "import wyrd, wyrd.rulesets as r; print(wyrd.__file__); "
                  "print(' '.join(x.id for x in r.rulesets()))"], cwd=tmp_path, env=_clean_env(tmp_path))
    assert shown.returncode == 0, shown.stderr
    where, ids = shown.stdout.splitlines()
    assert Path(where).resolve().is_relative_to(venv.resolve())
    assert ids == "abacus feat lots wolden"


def test_the_quick_start_plays_from_the_wheel(venv: Path, tmp_path: Path) -> None:
    """README's quick start, `wyrd play` fed from stdin, run from a folder outside the checkout."""
    played = _run([str(venv / "bin" / "wyrd"), "play"], input=QUICK_START, cwd=tmp_path, env=_clean_env(tmp_path))
    assert played.returncode == 0, played.stderr
    assert "Ada joins" in played.stdout
    assert "Scene 1 begins with Ada" in played.stdout
    assert list((tmp_path / "saves").glob("*.wyrd"))
    listed = _run([str(venv / "bin" / "wyrd"), "stories"], cwd=tmp_path, env=_clean_env(tmp_path))
    assert listed.returncode == 0, listed.stderr
    assert "the-milestones" in listed.stdout
