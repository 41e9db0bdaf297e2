"""Wolden's simulator: bots playing a scenario through play sessions (:mod:`wyrd.sim.wolden.bots`)."""

from wyrd.sim.playthrough import BotSimulator
from wyrd.sim.wolden.bots import BOTS, WoldenBot, WoldenBots

__all__ = ["BOTS", "SIMULATOR", "WoldenBot", "WoldenBots"]

SIMULATOR = BotSimulator("wolden", BOTS)
"""What the registry names as Wolden's ``policy``."""
