"""What ``wyrd simulate`` asks of a ruleset, and how a ruleset and a story's ruleset are found.

Every ruleset names its simulator in the registry (:attr:`wyrd.rulesets.Ruleset.policy`,
``module:attribute``); nothing here names a ruleset. A :class:`Simulator` takes a
:class:`Request` and gives back a report it can also lay out as text and, where it
has one, as a :class:`~wyrd.sim.show.Chart`. Most rulesets use
:class:`~wyrd.sim.session.BotSimulator` (bots typing lines into a real play session);
a ruleset may bring a faster one of its own.

:func:`story_ruleset` finds which ruleset a story belongs to by asking a new play
session of each ruleset to follow it: the one that does not refuse is the story's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from wyrd.rulesets import Ruleset, UnknownRuleset, find_ruleset
from wyrd.sim.runner import MAX_RUNS, Progress
from wyrd.sim.show import Chart

__all__ = ["POLICY_NAMES", "Request", "SimError", "SimReport", "Simulator", "check_request", "simulator_for",
           "story_ruleset"]

POLICY_NAMES = ("cautious", "bold", "random")
"""The policies every bundled simulator offers (``--policy``): careful, daring, and at random."""


class SimError(ValueError):
    """The story cannot be simulated as asked (freeform, no pregens, too few players, no bots...)."""


@dataclass(frozen=True)
class Request:
    """One simulation: the story, how many runs, and how the bots play them.

    Attributes:
        story: The story's id.
        runs: Playthroughs (1 or more).
        policy: How the bots play (a name from the simulator's ``policies``).
        seed: Run ``i`` is seeded by ``(seed, i)``: the same seed gives the same report.
        jobs: Worker processes (1 plays in this process); the report does not depend on it.
        players: Play the story's first ``players`` pregenerated characters (all if None).
        safe: Apply every action through its state-copying form, where a simulator has a faster one.
        content: The player's own story folders (beside the bundled ones and the player's home).
        progress: Called as ``progress(done, runs)`` as chunks of runs finish.
    """

    story: str
    runs: int
    policy: str = "cautious"
    seed: int = 0
    jobs: int = 1
    players: int | None = None
    safe: bool = False
    content: tuple[Path, ...] = ()
    progress: Progress | None = field(default=None, compare=False)


def check_request(request: Request, policies: Sequence[str]) -> None:
    """Refuse a bad number of runs or jobs (ValueError) or an unknown policy (SimError)."""
    if not 1 <= request.runs <= MAX_RUNS:
        raise ValueError(f"runs must be 1 to {MAX_RUNS:,}, not {request.runs}")
    if request.jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {request.jobs}")
    if request.policy not in policies:
        raise SimError(f"no policy {request.policy!r}; the policies are: {', '.join(policies)}")


@runtime_checkable
class SimReport(Protocol):
    """What every simulator's report offers: its number of runs and a JSON form."""

    @property
    def runs(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...


class Simulator(Protocol):
    """A ruleset's simulator: runs a request, and lays its report out."""

    @property
    def policies(self) -> tuple[str, ...]: ...

    def simulate(self, request: Request) -> SimReport: ...

    def text(self, report: Any) -> str: ...

    def chart(self, report: Any) -> Chart | None: ...


def simulator_for(ruleset: Ruleset | str) -> Simulator:
    """The simulator the registry names for ``ruleset``.

    Raises:
        SimError: If there is no such ruleset, or it names no simulator.
    """
    try:
        found = ruleset if isinstance(ruleset, Ruleset) else find_ruleset(ruleset)
    except UnknownRuleset as exc:
        raise SimError(str(exc)) from None
    if not found.policy:
        raise SimError(f"{found.name} has no bots to simulate its stories with")
    simulator: Simulator = found.part("policy")
    return simulator


def story_ruleset(story: str, content: Sequence[Path] = ()) -> str:
    """The id of the ruleset the story ``story`` is written for, as its file says.

    Raises:
        SimError: If no ruleset has a story ``story``.
    """
    from wyrd.play.engine.storyplay import content_dirs
    from wyrd.stories.formats import story_ruleset as ruleset_of_story

    found = ruleset_of_story(story, content_dirs(content))
    if found is not None:
        return found
    raise SimError(f"there is no story {story!r} in any ruleset (`wyrd stories` lists them)")
