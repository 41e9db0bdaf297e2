"""Thaeborn's simulator: bots playing a scenario through play sessions (:mod:`wyrd.sim.lots.bots`)."""

from wyrd.sim.lots.bots import BOTS, LotsBot, LotsBots
from wyrd.sim.playthrough import BotSimulator

__all__ = ["BOTS", "SIMULATOR", "LotsBot", "LotsBots"]

SIMULATOR = BotSimulator("lots", BOTS)
"""What the registry names as Thaeborn's ``policy``."""
