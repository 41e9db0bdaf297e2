"""``wyrd simulate``: its JSON parses, its text reads, its errors are one line, its plot is drawn."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from wyrd.play.cli.main import main


def test_json_report_parses(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "the-milestones", "--runs", "40", "--policy", "bold", "--seed", "3", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    report = json.loads(out)
    assert report["kind"] == "simulation" and report["story"] == "the-milestones" and report["runs"] == 40
    assert report["policy"] == "bold" and report["seed"] == 3
    assert report["jobs"] == (os.cpu_count() or 1)  # one worker per core unless told otherwise
    scene = report["scenes"][0]
    assert {"reached", "cleared", "points", "wyrd", "defeat", "defeated", "challenges"} <= set(scene)
    challenge = scene["challenges"][0]
    assert {"overcome", "failed", "bypassed", "untackled", "roll", "exact"} <= set(challenge)
    assert set(challenge["overcome"]) == {"k", "n", "p", "low", "high"}
    assert {"all_freed", "any_held", "any_defeated", "endings"} <= set(report["finale"])
    assert report["characters"][0]["name"] == "Maud Ellery"
    assert report["curve"][0]["step"] == 1


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "the-milestones", "-n", "30", "-k", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The Milestones (the-milestones): 30 runs, policy cautious, seed 0")
    for heading in ("Scenes", "Characters", "Finale", "Defeat curve", "Fog on the Moor"):
        assert heading in out
    assert "Danny" not in out.split("Per run")[0]


def test_progress_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "the-milestones", "-n", "30", "--progress", "--json"]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)
    assert "30/30 runs" in captured.err


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "no-such-story"], "no story 'no-such-story'"),
    (["simulate", "wrackham"], "freeform"),
    (["simulate", "the-milestones", "--players", "3"], "2 pregenerated"),
])
def test_errors_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_bad_numbers_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "the-milestones", "--runs", "0"]) == 2
    assert "must be 1 or more" in capsys.readouterr().err


def test_plot_without_matplotlib_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("wyrd.sim.show.plot_available", lambda: False)
    monkeypatch.setattr("wyrd.sim.plot_available", lambda: False)
    assert main(["simulate", "the-milestones", "-n", "5", "--plot", str(tmp_path / "c.png")]) == 2
    err = capsys.readouterr().err
    assert "matplotlib" in err and "wyrd[plot]" in err
    assert not (tmp_path / "c.png").exists()


def test_plot_import_failure_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from wyrd.sim import PlotUnavailable
    from wyrd.sim.abacus import plot, simulate

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    report = simulate("the-milestones", 3)
    with pytest.raises(PlotUnavailable, match="wyrd\\[plot\\]"):
        plot(report, tmp_path / "c.png")


def test_plot_draws_the_defeat_curve(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "curve.png"
    assert main(["simulate", "the-milestones", "-n", "20", "--policy", "random", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "defeat curve" in capsys.readouterr().err


def test_the_cli_module_imports_the_simulator_lazily() -> None:
    import subprocess

    code = "import sys, wyrd.play.cli.main; print(any(m == 'sim' or m.startswith('sim.') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
