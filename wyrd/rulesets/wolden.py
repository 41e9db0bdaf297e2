"""The Wolden ruleset, as the registry knows it (entry point ``wolden`` of ``wyrd.rulesets``)."""

from wyrd.rulesets import Ruleset

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="wolden",
    name="Wolden",
    seed="001_0ed33d63b95f167b.txt",
    rules="wyrd.rules.wolden",
    kit="wyrd.play.kits.wolden.kit",
    odds="wyrd.play.kits.wolden.odds_cli",
    tables=("wyrd.oracle:tables/wolden.yaml", "wyrd.oracle:tables/wolden-twists.yaml"),
    prompts="wyrd.prompts:wolden",
    stories="wyrd.stories.wolden.format",
    policy="wyrd.sim.wolden:SIMULATOR",
)
