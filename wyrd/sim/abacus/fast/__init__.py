"""The Abacus simulator's fast path: the rules the bots use, carried out on plain data.

The rules core (``wyrd.rules.abacus``) builds a pydantic event for every step,
checks every precondition, scans the stage rules as models and copies the state;
that is what play needs, and it costs a simulated run of *The Hollow Fair* about
3 ms. Here the same rules run on slots objects, ints and lists
(:mod:`~wyrd.sim.abacus.fast.board`), drawing the same faces from the same dice in
the same order (:mod:`~wyrd.sim.abacus.fast.rules`, :mod:`~wyrd.sim.abacus.fast.actions`),
for the same bots (:mod:`~wyrd.sim.abacus.fast.playthrough`), so a seed gives the
same report as the rules core's path (``safe=True``), which a test compares on
every bundled story and policy. Runs are added up by :class:`Fold`, which counts
the scenes and the run outcomes that went the same way before they reach the tally.

What the plain rules do not carry out is left to the rules core: a whole story
(:func:`layout` answers None), or one run (a refusal, a tie that will not break),
which is then played by ``wyrd.sim.abacus.game.play`` and counted in the report
(``rules_core_runs``).
"""

from __future__ import annotations

from wyrd.sim.abacus.fast.board import UNSUPPORTED, Layout, layout
from wyrd.sim.abacus.fast.playthrough import Fold, play_chunk

__all__ = ["UNSUPPORTED", "Fold", "Layout", "layout", "play_chunk"]
