"""The Thaeborn ruleset, as the registry knows it (entry point ``lots`` of ``wyrd.rulesets``)."""

from wyrd.rulesets import Ruleset

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="lots",
    name="Thaeborn",
    seed="004_06c27bdc2e65ccea.txt",
    rules="wyrd.rules.lots",
    kit="wyrd.play.kits.lots.kit",
    odds="wyrd.play.kits.lots.odds_cli",
    tables=("wyrd.oracle:tables/lots.yaml", "wyrd.oracle:tables/lots-twists.yaml"),
    prompts="wyrd.prompts:lots",
    stories="wyrd.stories.lots.format",
    policy="wyrd.sim.lots:SIMULATOR",
)
