"""Wolden's simulator: bots playing a scenario (:mod:`wyrd.sim.wolden.bots`), on plain data by default
(:mod:`wyrd.sim.wolden.fast`) and through play sessions in safe mode."""

from wyrd.sim.playthrough import BotSimulator
from wyrd.sim.wolden.bots import BOTS, Move, WoldenBot, WoldenBots
from wyrd.sim.wolden.fast import play_fast

__all__ = ["BOTS", "SIMULATOR", "Move", "WoldenBot", "WoldenBots", "play_fast"]

SIMULATOR = BotSimulator("wolden", BOTS, fast=play_fast)
"""What the registry names as Wolden's ``policy``."""
