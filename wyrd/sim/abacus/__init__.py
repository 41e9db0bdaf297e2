"""The Abacus balance simulator: bot players play a story to its finale, many times over, fast.

Bots follow the story's scene flow (default exits) and play by a policy
(``cautious``, ``bold``, ``random``, or any object with a ``plan`` method), with
the real rules core doing every roll and moving every point: no console, no
narration, no save file. The report gives, each with a confidence interval, the
chance each scene's challenges are overcome, the points and Wyrd spent per scene,
defeat rates by character and by scene, clock and counter outcomes, and the
finale's results; exact odds stand beside the estimates where a closed form
exists. :data:`SIMULATOR` is what the registry names for ``wyrd simulate``;
:func:`simulate` the API::

    from wyrd.sim.abacus import simulate

    report = simulate("hollow-fair", 2000, policy="bold", seed=7, jobs=2)
    print(report.finale.all_freed.p, report.to_json())

Modules: :mod:`~wyrd.sim.abacus.policy` (decisions), :mod:`~wyrd.sim.abacus.engine` (the
prepared story and how actions are applied), :mod:`~wyrd.sim.abacus.game` (one run),
:mod:`~wyrd.sim.abacus.fast` (one run on plain data, the same record, the default),
:mod:`~wyrd.sim.abacus.tally` (adding runs up), :mod:`~wyrd.sim.abacus.report` (the
estimates), :mod:`~wyrd.sim.abacus.runner` (many runs over processes),
:mod:`~wyrd.sim.abacus.show` (text and plot).
"""

from __future__ import annotations

from typing import Any

from wyrd.sim.abacus.engine import Kit, prepare
from wyrd.sim.abacus.game import RunRecord, play
from wyrd.sim.abacus.policy import (
    POLICIES,
    Bold,
    Cautious,
    Fixed,
    Member,
    Plan,
    Policy,
    RandomPolicy,
    Situation,
    policy_named,
)
from wyrd.sim.abacus.report import Report
from wyrd.sim.abacus.runner import load, simulate
from wyrd.sim.abacus.show import chart, plot, text
from wyrd.sim.show import Chart
from wyrd.sim.simulator import Request, SimError, check_request

__all__ = [
    "POLICIES",
    "SIMULATOR",
    "AbacusSimulator",
    "Bold",
    "Cautious",
    "Fixed",
    "Kit",
    "Member",
    "Plan",
    "Policy",
    "RandomPolicy",
    "Report",
    "RunRecord",
    "SimError",
    "Situation",
    "load",
    "play",
    "plot",
    "policy_named",
    "prepare",
    "simulate",
    "text",
]


class AbacusSimulator:
    """The Abacus's own simulator (the rules core's actions, no play session), as ``wyrd simulate`` runs it."""

    policies: tuple[str, ...] = tuple(POLICIES)

    def simulate(self, request: Request) -> Report:
        from wyrd.play.engine.storyplay import content_dirs
        from wyrd.stories.loader import StoryError

        check_request(request, self.policies)
        dirs = [d for d in content_dirs(request.content) if d.is_dir()]
        try:  # by id, so that a story simulated again in this process is not read again
            return simulate(request.story, request.runs, players=request.players, policy=request.policy,
                            seed=request.seed, jobs=request.jobs, safe=request.safe, dirs=dirs,
                            progress=request.progress)
        except StoryError as exc:  # (only finding and reading the story raises it)
            raise SimError(str(exc)) from None

    def text(self, report: Any) -> str:
        assert isinstance(report, Report)
        return text(report)

    def chart(self, report: Any) -> Chart | None:
        assert isinstance(report, Report)
        return chart(report)


SIMULATOR = AbacusSimulator()
"""What the registry names as the Abacus's ``policy``."""
