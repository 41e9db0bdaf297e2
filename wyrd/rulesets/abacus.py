"""The Wyrd Abacus ruleset, as the registry knows it (entry point ``abacus`` of ``wyrd.rulesets``)."""

from wyrd.rulesets import Ruleset

__all__ = ["RULESET"]

RULESET = Ruleset(
    id="abacus",
    name="Wyrd Abacus",
    seed="000_e418bfdb0e315e34.txt",
    rules="wyrd.rules.abacus",
    kit="wyrd.play.kits.abacus.kit",
    odds="wyrd.play.kits.abacus.odds_cli",
    # The tables of its moments (``narrate/...``). Its prompts are the shared ones at the top
    # of wyrd/prompts (the moments of wyrd.oracle.narrators.base.MomentKind), so none of its own.
    tables=(
        "wyrd.oracle:tables/narrate-body.yaml",
        "wyrd.oracle:tables/narrate-mind.yaml",
        "wyrd.oracle:tables/narrate-play.yaml",
        "wyrd.oracle:tables/narrate-soul.yaml",
        "wyrd.oracle:tables/narrate-story.yaml",
    ),
    default=True,
    stories="wyrd.stories.abacus.format",
    policy="wyrd.sim.abacus:SIMULATOR",
)
