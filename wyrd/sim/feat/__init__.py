"""Heroes of the Fall's simulator: bots playing a story (:mod:`wyrd.sim.feat.bots`), on the rules core by
default (:mod:`wyrd.sim.feat.fast`), through play sessions when asked for the checked path (``safe``)."""

from wyrd.sim.feat.bots import BOTS, FeatBot, FeatBots
from wyrd.sim.feat.fast import play_fast
from wyrd.sim.playthrough import BotSimulator

__all__ = ["BOTS", "SIMULATOR", "FeatBot", "FeatBots"]

SIMULATOR = BotSimulator("feat", BOTS, fast=play_fast)
"""What the registry names as Heroes of the Fall's ``policy``."""
