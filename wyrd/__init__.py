"""Wyrd: tabletop role-playing without a narrator.

Everything Wyrd installs lives under this one import name: the pure rules core
(:mod:`wyrd.rules`), the rulesets' registry (:mod:`wyrd.rulesets`), story
formats (:mod:`wyrd.stories`), the oracle and narrators (:mod:`wyrd.oracle`),
the prompts (:mod:`wyrd.prompts`), play (:mod:`wyrd.play`: the engine, one kit
per ruleset, the front-ends and the ``wyrd`` command) and the balance simulator
(:mod:`wyrd.sim`).
"""

__all__ = ["__version__"]

#: The version of Wyrd: the package's metadata reads it from here (pyproject.toml), and a save
#: records it, without reading installed packages' metadata.
__version__ = "0.1.0"
