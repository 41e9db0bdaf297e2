"""The Wyrd Abacus ruleset, as the registry knows it (entry point ``abacus`` of ``wyrd.rulesets``)."""

from wyrd.rulesets import Ruleset

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="abacus",
    name="Wyrd Abacus",
    seed="000_e418bfdb0e315e34.txt",
    rules="wyrd.rules.abacus",
    kit="wyrd.play.kits.abacus.kit",
    policy="wyrd.sim.abacus:SIMULATOR",
)
