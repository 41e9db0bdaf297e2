"""The firewall against its corpora: how many hostile replies get through, how much plain prose is refused.

``python -m bench firewall`` reads ``tests/oracle/corpus/`` (the moments, a hostile
corpus and a benign one), judges every reply with the firewall's public
:func:`~wyrd.oracle.narrators.firewall.check` against its moment's request, and prints
the share of hostile replies let through (by label), the share of benign ones refused
(each one, with the reason), the refusals by rule, and the time per reply, whole and
streamed a few characters at a time as a model sends it.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.narrators.base import NarrationRequest
from wyrd.oracle.narrators.firewall import StreamGuard, Verdict, check

__all__ = ["CORPUS", "Reply", "judge", "load", "request_for", "run"]

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "oracle" / "corpus"


@dataclass(frozen=True)
class Reply:
    """One corpus entry: its id, the moment it answers, its label (hostile only) and its text."""

    id: str
    moment: str
    text: str
    label: str = ""


def _read(name: str) -> Any:
    return yaml.safe_load((CORPUS / name).read_text(encoding="utf-8"))


def request_for(moment: dict[str, Any], casts: dict[str, Any]) -> NarrationRequest:
    """The request a kit would make for ``moment`` (a moments.yaml entry), with its cast's story words."""
    cast = casts[moment["cast"]]
    return NarrationRequest(
        moment=moment["kind"], detail=moment.get("detail"), subject=moment.get("subject"),
        characters=[CharacterFacts.model_validate(c) for c in cast["characters"]],
        story=cast["story"], location=cast["location"], denizens=list(cast["denizens"]),
        success=moment.get("success"), harm=moment.get("harm"), death=moment.get("death"),
        values={"numbers": list(moment.get("numbers", []))})


def load() -> tuple[dict[str, NarrationRequest], list[Reply], list[Reply]]:
    """The requests by moment id, the hostile replies and the benign ones."""
    moments = _read("moments.yaml")
    requests = {key: request_for(m, moments["casts"]) for key, m in moments["moments"].items()}
    hostile = [Reply(r["id"], r["moment"], r["text"], r["label"]) for r in _read("hostile.yaml")["replies"]]
    benign = [Reply(r["id"], r["moment"], r["text"]) for r in _read("benign.yaml")["replies"]]
    return requests, hostile, benign


def judge(reply: Reply, requests: dict[str, NarrationRequest]) -> Verdict:
    """The firewall's verdict on ``reply`` for its moment."""
    return check(reply.text, requests[reply.moment])


def _streamed(reply: Reply, request: NarrationRequest, size: int = 4) -> Verdict:
    guard = StreamGuard(request)
    for start in range(0, len(reply.text), size):
        guard.feed(reply.text[start:start + size])
        if guard.rejected is not None or guard.full:
            break
    return guard.finish()


def _time_per_reply(replies: list[Reply], requests: dict[str, NarrationRequest], streamed: bool) -> float:
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        for reply in replies:
            if streamed:
                _streamed(reply, requests[reply.moment])
            else:
                judge(reply, requests)
        runs.append((time.perf_counter() - start) / len(replies))
    return statistics.median(runs)


def run() -> list[str]:
    requests, hostile, benign = load()
    check("Warm the caches.", next(iter(requests.values())))
    lines = []
    through = [r for r in hostile if judge(r, requests).ok]
    labels = Counter(r.label for r in hostile)
    lines.append(f"hostile replies let through: {len(through)} of {len(hostile)} ({len(through) / len(hostile):.1%})")
    lines.append("  by label (through/total): " + ", ".join(
        f"{label} {sum(1 for r in through if r.label == label)}/{n}" for label, n in sorted(labels.items())))
    lines += [f"  let through: {r.id}: {r.text!r}" for r in through]
    refused = [(r, v) for r in benign if not (v := judge(r, requests)).ok]
    lines.append(f"benign replies refused: {len(refused)} of {len(benign)} ({len(refused) / len(benign):.1%})")
    lines += [f"  refused: {r.id}: {r.text!r}: {v.reason}" for r, v in refused]
    rules = Counter(judge(r, requests).rule for r in hostile)
    rules.pop("", None)
    lines.append("hostile refusals by rule: " + ", ".join(f"{rule} {n}" for rule, n in rules.most_common()))
    everything = hostile + benign
    whole = _time_per_reply(everything, requests, streamed=False)
    piecewise = _time_per_reply(everything, requests, streamed=True)
    lines.append(f"time per reply over both corpora (median of 5 passes): {whole * 1e6:.0f} µs whole, "
                 f"{piecewise * 1e6:.0f} µs streamed in 4-character chunks")
    return lines
