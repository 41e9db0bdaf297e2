"""Heroes of the Fall's simulator: bots playing a story through play sessions (:mod:`wyrd.sim.feat.bots`)."""

from wyrd.sim.feat.bots import BOTS, FeatBot, FeatBots
from wyrd.sim.playthrough import BotSimulator

__all__ = ["BOTS", "SIMULATOR", "FeatBot", "FeatBots"]

SIMULATOR = BotSimulator("feat", BOTS)
"""What the registry names as Heroes of the Fall's ``policy``."""
