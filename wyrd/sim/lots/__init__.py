"""Thaeborn's simulator: bots playing a scenario (:mod:`wyrd.sim.lots.bots`), on plain data by default
(:mod:`wyrd.sim.lots.table`), through play sessions when asked for the checked path (``safe``)."""

from wyrd.sim.lots.bots import BOTS, LotsBot, LotsBots
from wyrd.sim.lots.table import fast_run
from wyrd.sim.playthrough import BotSimulator

__all__ = ["BOTS", "SIMULATOR", "LotsBot", "LotsBots"]

SIMULATOR = BotSimulator("lots", BOTS, fast=fast_run)
"""What the registry names as Thaeborn's ``policy``."""
