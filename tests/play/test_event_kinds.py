"""Issue 15 point 5: every kind of event a game records has a typed model in its ruleset's union.

Each golden game's events, read back through its ruleset's union (``PlayHooks.events``)
and dumped again, are exactly the JSON the transcript holds: the field names, their
order and the values are those of the release before the events were typed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wyrd.play.engine.events import Recorded
from wyrd.play.engine.kits import hooks_for
from wyrd.rules.actions import Event

GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.jsonl"))


def _events(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _ruleset(events: list[dict[str, object]]) -> str:
    return next(str(e["ruleset"]) for e in events if e["kind"] == "session_started")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_the_union_reads_and_writes_every_golden_event_unchanged(path: Path) -> None:
    events = _events(path)
    kinds = hooks_for(_ruleset(events)).events
    for saved in events:
        typed = kinds.parse(saved)
        assert isinstance(typed, Event)
        assert json.dumps(typed.model_dump(mode="json")) == json.dumps({k: v for k, v in saved.items() if k != "seq"})
        assert Recorded.parse(saved, kinds).plain() == saved


def test_the_goldens_cover_every_ruleset() -> None:
    assert {_ruleset(_events(p)) for p in GOLDEN} == {"abacus", "wolden", "feat", "lots"}


def test_a_kind_of_another_ruleset_is_refused() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        hooks_for("lots").events.parse({"kind": "stage_rules_evident", "scene": "s", "rules": [], "names": []})


def test_a_narration_leaves_out_the_marks_it_lacks() -> None:
    from wyrd.oracle.events import Narrated

    assert Narrated(text="Fog.", source="table").model_dump(mode="json") == {
        "kind": "narration", "text": "Fog.", "source": "table"}
    assert list(Narrated(text="x", source="m", moment="twist", fallback="timeout").model_dump()) == [
        "kind", "text", "source", "moment", "fallback"]
