"""The balance simulator: bot players play a story many times over, with any ruleset's rules.

``wyrd simulate STORY`` finds the story's ruleset (:func:`story_ruleset`), the
simulator the registry names for it (:func:`simulator_for`, the ruleset's
``policy``), and runs a :class:`Request`::

    from wyrd.sim import Request, simulator_for, story_ruleset

    simulator = simulator_for(story_ruleset("the-drowned-bell"))
    report = simulator.simulate(Request("the-drowned-bell", 200, policy="bold", seed=7))
    print(simulator.text(report))

Most rulesets' simulators are a :class:`BotSimulator`: the ruleset's bots
(:mod:`wyrd.sim.bots`) type lines into real play sessions (:mod:`wyrd.sim.playthrough`),
and :mod:`wyrd.sim.summary` reports how often the story ended, the party fell or a
run was cut off, with the ruleset's own figures. A ruleset may bring its own faster
simulator instead. Shared by all: :mod:`wyrd.sim.stats` (intervals),
:mod:`wyrd.sim.runner` (chunks of runs, seeds, the progress bar), :mod:`wyrd.sim.show`
(text helpers and the chart).
"""

from wyrd.sim.bots import Bot, Bots, Figure, Outcome
from wyrd.sim.playthrough import STEP_CAP, BotSimulator, play_run
from wyrd.sim.runner import ProgressBar
from wyrd.sim.show import Chart, PlotUnavailable, draw, plot_available
from wyrd.sim.simulator import POLICY_NAMES, Request, SimError, SimReport, Simulator, simulator_for, story_ruleset
from wyrd.sim.stats import Mean, Proportion, mean_interval, wilson
from wyrd.sim.summary import BotReport

__all__ = [
    "POLICY_NAMES",
    "STEP_CAP",
    "Bot",
    "BotReport",
    "BotSimulator",
    "Bots",
    "Chart",
    "Figure",
    "Mean",
    "Outcome",
    "PlotUnavailable",
    "ProgressBar",
    "Proportion",
    "Request",
    "SimError",
    "SimReport",
    "Simulator",
    "draw",
    "mean_interval",
    "play_run",
    "plot_available",
    "simulator_for",
    "story_ruleset",
    "wilson",
]
