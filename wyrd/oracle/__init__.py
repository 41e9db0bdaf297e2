"""The fiction side of Wyrd: random tables, twists, the question oracle, narrators.

Nothing here changes a number: the rules core has settled every roll before the
oracle is asked to tell it. Every die still goes through a :class:`wyrd.rules.dice.Dice`.

* :mod:`wyrd.oracle.tables`: the table format (YAML in ``oracle/tables/``), its checks, rolling, decks.
* :mod:`wyrd.oracle.twists`: Wyrd results become twists (6: threat / eerie / tie; best of 1-2: intrusion).
* :mod:`wyrd.oracle.question`: ``ask`` (the d100 question oracle), the scene test, ``inspire``.
* :mod:`wyrd.oracle.facts`: the settled facts narration draws on (cast, challenges, place).
* :mod:`wyrd.oracle.narrators`: the narrator interface, what a ruleset's kit hands the narration
  (its typed moments), the offline table narrator, the LLM narrator and its firewall.

No ruleset is named here: each kit turns its own events into moments and names its own tables.
* :mod:`wyrd.oracle.selftest`: exact distributions against seeded samples (chi-square).

Imports go one way: ``oracle`` may import ``rules`` (and ``stories``), never ``play``.
"""

__all__: list[str] = []
