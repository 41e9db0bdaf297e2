"""The Heroes of the Fall ruleset, as the registry knows it (entry point ``feat`` of ``wyrd.rulesets``)."""

from wyrd.rulesets import Ruleset

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="feat",
    name="Heroes of the Fall",
    seed="003_9d26c77002c98e48.txt",
    rules="wyrd.rules.feat",
    kit="wyrd.play.kits.feat.kit",
    odds="wyrd.play.kits.feat.odds_cli",
    tables=("wyrd.oracle:tables/feat.yaml", "wyrd.oracle:tables/feat-twists.yaml"),
    prompts="wyrd.prompts:feat",
    stories="wyrd.stories.feat.format",
    policy="wyrd.sim.feat:SIMULATOR",
)
