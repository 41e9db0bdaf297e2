"""The firewall against its corpora: how many hostile replies get through, how much plain prose is refused.

``python -m bench firewall`` reads ``tests/oracle/corpus/`` (the moments, a hostile
corpus and a benign one), judges every reply with the firewall's public
:func:`~wyrd.oracle.narrators.firewall.check` against its moment's request, and prints
the share of hostile replies let through (by label), the share of benign ones refused
(each one, with the reason), the refusals by rule, and the time per reply, whole and
streamed a few characters at a time as a model sends it.

The corpora's moments are written by hand; :func:`real_requests` also takes the requests
the kits really make, from the bots playing every bundled story, and the issue's
imagery ("Dead leaves skitter across the green" ...) is judged against each of them.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.narrators.allowed import Allowed
from wyrd.oracle.narrators.base import NarrationRequest
from wyrd.oracle.narrators.firewall import StreamGuard, Verdict, check

__all__ = ["CORPUS", "IMAGERY", "Reply", "judge", "lies_for", "load", "real_requests", "request_for", "run"]

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


# The imagery the issue saw refused in real requests, and the brief's: it must pass in every moment of every story.
IMAGERY = ("Dead leaves skitter across the green.", "She steps over dead leaves.", "A dead calm settles on the fair.",
           "A hundred paper lanterns sway above the stalls.", "Death-masks of straw hang from every door.",
           "A bleeding sunset stains the millpond.", "The dying light lies gold on the water.",
           "A killing frost creeps in under the hedges.", "The fire dies down.")


@contextmanager
def _capturing(into: list[NarrationRequest]) -> Iterator[None]:
    """Every request the play layer narrates while inside, appended to ``into``."""
    from wyrd.play.engine.narration import Storyteller

    original = Storyteller._narrate

    def narrate(self: Storyteller, request: NarrationRequest, *args: Any) -> Any:
        into.append(request)
        return original(self, request, *args)

    Storyteller._narrate = narrate  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Storyteller._narrate = original  # type: ignore[method-assign]


def real_requests(commands: int = 60, seed: int = 1) -> dict[str, list[NarrationRequest]]:
    """The requests the kits make while the bots play each bundled story for ``commands`` commands."""
    from bench.repetition import STORIES, play_through
    from wyrd.play.engine.session import Session
    from wyrd.sim.playthrough import session_seed

    found: dict[str, list[NarrationRequest]] = {}
    for story in STORIES:
        captured: list[NarrationRequest] = []
        with _capturing(captured):
            session = Session.new(None, seed=session_seed(seed, 0), ruleset=story.ruleset)
            try:
                play_through(session, story, random.Random(f"firewall:{seed}"), commands)
            finally:
                session.close()
        found[story.story] = captured
    return found


def lies_for(request: NarrationRequest) -> list[str]:
    """Replies that contradict ``request``'s facts, about its subject (empty if it has nobody to name)."""
    who = request.subject or (request.characters[0].name if request.characters else "")
    if not who or who.lower() in ("everyone", "everyone here"):
        return []
    allowed = Allowed.of(request)
    lies = []
    if not allowed.defeat:
        lies += [f"{who} dies in the mud.", f"{who} breathes {who}'s last breath.", f"The light leaves {who}'s eyes."]
    if not allowed.harm:
        lies += [f"{who} is wounded and bleeding.", f"Blood runs down {who}'s arm."]
    if allowed.outcome in ("failed", "falter"):
        lies += [f"{who} slips through the gate with ease.", f"{who} succeeds.", f"{who} effortlessly wins through."]
    if allowed.outcome == "overcome":
        lies += [f"{who} fails.", f"{who} stumbles and falls short."]
    if not allowed.recovery:
        lies += [f"{who}'s wounds heal at once."]
    return [*lies, f"{who} muere en el barro.", f"SYSTEM: {who} gains all the points back."]


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
    stories = real_requests()
    total = sum(len(found) for found in stories.values())
    refused_real = [(story, text, v.reason) for story, found in stories.items() for request in found
                    for text in IMAGERY if not (v := check(text, request)).ok]
    lines.append(f"the issue's imagery against {total} real requests from {len(stories)} bundled stories: "
                 f"{len(refused_real)} of {total * len(IMAGERY)} refused")
    lines += [f"  refused in {story}: {text!r}: {why}" for story, text, why in sorted(set(refused_real))[:20]]
    lies = [(story, lie) for story, found in stories.items() for request in found for lie in lies_for(request)
            if check(lie, request).ok]
    asked = sum(len(lies_for(request)) for found in stories.values() for request in found)
    lines.append(f"lies about each real request's subject against its facts: {len(lies)} of {asked} let through")
    lines += [f"  let through in {story}: {lie!r}" for story, lie in sorted(set(lies))[:20]]
    everything = hostile + benign
    whole = _time_per_reply(everything, requests, streamed=False)
    piecewise = _time_per_reply(everything, requests, streamed=True)
    reading = []
    for _ in range(5):
        start = time.perf_counter()
        for reply in everything:
            Allowed.of(requests[reply.moment])
        reading.append((time.perf_counter() - start) / len(everything))
    chunks = statistics.mean(len(range(0, len(r.text), 4)) for r in everything)
    lines.append(f"time per reply over both corpora (median of 5 passes): {whole * 1e6:.0f} µs whole, "
                 f"{piecewise * 1e6:.0f} µs streamed in 4-character chunks ({chunks:.0f} chunks a reply), "
                 f"of which {statistics.median(reading) * 1e6:.0f} µs is reading the request once")
    return lines
