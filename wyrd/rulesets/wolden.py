"""The Wolden ruleset, as the registry knows it (entry point ``wolden`` of ``wyrd.rulesets``)."""

from wyrd.rulesets import Ruleset

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="wolden",
    name="Wolden",
    seed="001_0ed33d63b95f167b.txt",
    rules="wyrd.rules.wolden",
    kit="wyrd.play.kits.wolden.kit",
    policy="wyrd.sim.wolden:SIMULATOR",
)
