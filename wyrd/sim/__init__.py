"""The balance simulator: bot players play a story to its finale, many times over.

Bots follow the story's scene flow (default exits) and play by a policy
(``cautious``, ``bold``, ``random``, or any object with a ``plan`` method), with
the real rules core doing every roll and moving every point: no console, no
narration, no save file. The report gives, each with a confidence interval, the
chance each scene's challenges are overcome, the points and Wyrd spent per scene,
defeat rates by character and by scene, clock and counter outcomes, and the
finale's results; exact odds stand beside the estimates where a closed form
exists. ``wyrd simulate`` is the command line; :func:`simulate` the API::

    from wyrd.sim import simulate

    report = simulate("hollow-fair", 2000, policy="bold", seed=7, jobs=2)
    print(report.finale.all_freed.p, report.to_json())

Modules: :mod:`wyrd.sim.policy` (decisions), :mod:`wyrd.sim.engine` (the prepared story and
how actions are applied), :mod:`wyrd.sim.game` (one run), :mod:`wyrd.sim.tally` (adding
runs up), :mod:`wyrd.sim.report` (the estimates), :mod:`wyrd.sim.stats` (intervals),
:mod:`wyrd.sim.runner` (many runs over processes), :mod:`wyrd.sim.show` (text and plot).
"""

from wyrd.sim.engine import Kit, SimError, prepare
from wyrd.sim.game import RunRecord, play
from wyrd.sim.policy import POLICIES, Bold, Cautious, Fixed, Member, Plan, Policy, RandomPolicy, Situation, policy_named
from wyrd.sim.report import Report
from wyrd.sim.runner import ProgressBar, load, simulate
from wyrd.sim.show import PlotUnavailable, plot, plot_available, text
from wyrd.sim.stats import Mean, Proportion, mean_interval, wilson

__all__ = [
    "POLICIES",
    "Bold",
    "Cautious",
    "Fixed",
    "Kit",
    "Mean",
    "Member",
    "Plan",
    "PlotUnavailable",
    "Policy",
    "ProgressBar",
    "Proportion",
    "RandomPolicy",
    "Report",
    "RunRecord",
    "SimError",
    "Situation",
    "load",
    "mean_interval",
    "play",
    "plot",
    "plot_available",
    "policy_named",
    "prepare",
    "simulate",
    "text",
    "wilson",
]
