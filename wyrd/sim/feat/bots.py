"""Bots for Heroes of the Fall: they play each scene's asks, in order, to the story's ending.

``story ID`` has already put the story's heroes in play. Each scene lists what it
asks of the players as command lines (``try Wenna climbing 5``, ``survive Maud 6
"Cobb's knife"``): the bot plays them in order, as a table does, then ``scene``
moves on. An ask for a hero who is dead is passed over; one for a hero out of
action after a failed shock waits for ``recover`` first (RULES.md: they act again
when the table agrees).

The policies (``--policy``):

* ``cautious`` buys automatic 8s with Wyrd (5 points each, ``eights N``) on every
  roll it can afford, and takes each scene's first exit.
* ``bold`` never buys an 8 and takes each scene's first exit.
* ``random`` buys a random number of the 8s it can afford and takes a random exit.

The run is over when the story has ended, or every hero of the story's cast is
dead (the party fell).
"""

from __future__ import annotations

import random
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

import wyrd.rules.feat as F
from wyrd.sim.bots import Figure, Outcome
from wyrd.sim.simulator import POLICY_NAMES, SimError
from wyrd.stories.feat import FeatProgress

if TYPE_CHECKING:
    from wyrd.play.engine.reply import Reply

__all__ = ["BOTS", "COUNTED", "EIGHT_COST", "FIGURES", "FeatBot", "FeatBots", "Seat"]

FIGURES = (
    Figure("scenes", "scenes begun"),
    Figure("feats", "feats rolled"),
    Figure("feats_failed", "feats failed"),
    Figure("shocks_failed", "shock tests failed (out of action)"),
    Figure("mettle_lost", "Mettle lost"),
    Figure("deaths", "deaths"),
    Figure("wyrd_spent", "Wyrd spent on 8s"),
)
COUNTED = frozenset({"scene_started", "feat_rolled", "shock_tested", "mettle_lost", "character_killed"})
"""The kinds of event :meth:`FeatBots.count` reads (it passes over every other)."""
EIGHT_COST = 5  # RULES.md: an automatic 8 costs 5 Wyrd points
MOST_EIGHTS = 3
# The verbs that roll the Feat table for the character they name first (and so may buy 8s).
ROLLS = frozenset({"try", "feat", "test", "oppose", "search", "react", "shock", "survive", "fatigue", "first",
                   "race"})


class Seat(Protocol):
    """What a bot reads of the game it plays: a play :class:`Session`, or the fast path's table."""

    @property
    def state(self) -> Any: ...

    @property
    def follower(self) -> Any: ...


@lru_cache(maxsize=256)
def _words(ask: str) -> tuple[str, ...]:
    """An ask's words, as a shell reads them (a story has few asks: each is split once)."""
    return tuple(shlex.split(ask))


def _state(session: Seat) -> F.GameState:
    state = session.state
    assert isinstance(state, F.GameState), "a Heroes of the Fall bot plays a Heroes of the Fall session"
    return state


def _progress(session: Seat) -> FeatProgress:
    found = session.follower
    assert isinstance(found, FeatProgress), "a Heroes of the Fall session follows a story"
    return found


def _named(word: str, state: F.GameState) -> F.Character | None:
    """The character a word of an ask names (a name or its unique beginning, as the verbs read it)."""
    name = _name_in(word, tuple(state.characters))
    return state.characters[name] if name is not None else None


@lru_cache(maxsize=1024)
def _name_in(word: str, names: tuple[str, ...]) -> str | None:
    """The one of ``names`` that ``word`` names (the same few words and names come back in every run)."""
    folded = word.strip(",").casefold()
    found = [n for n in names if n.casefold() == folded]
    found = found or [n for n in names if n.casefold().startswith(folded)]
    return found[0] if len(found) == 1 else None


@dataclass
class FeatBot:
    """One run's players."""

    policy: str
    rng: random.Random
    scene: str | None = None  # the scene whose asks are queued
    asks: list[str] = field(default_factory=list)

    def over(self, session: Seat) -> Outcome | None:
        place = _progress(session)
        if place.ended:
            return Outcome.ENDED
        heroes = place.story.heroes() if place.story is not None else ()
        characters = _state(session).characters
        for name in heroes:  # asked after every line: the first hero standing answers
            hero = characters.get(name)
            if hero is not None and not hero.dead:
                return None
        return Outcome.FELL if heroes else None

    def next_line(self, session: Seat, last: Reply | None) -> str:
        state, place = _state(session), _progress(session)
        if place.current != self.scene:
            self.scene = place.current
            self.asks = list(place.story.scene(self.scene).asks) if place.story and self.scene else []
        while self.asks:
            ask = self.asks[0]
            words = _words(ask)
            who = _named(words[1], state) if len(words) > 1 else None
            if who is not None and who.dead:
                self.asks.pop(0)  # the dead do nothing more
                continue
            if who is not None and who.out_of_action and words[0] != "recover":
                return f'recover "{who.name}"'
            self.asks.pop(0)
            return self._with_eights(ask, words[0], who)
        return self._scene(place)

    def _with_eights(self, ask: str, verb: str, who: F.Character | None) -> str:
        if verb not in ROLLS or who is None or self.policy == "bold":
            return ask
        can = min(MOST_EIGHTS, who.wyrd // EIGHT_COST)
        n = can if self.policy == "cautious" else self.rng.randint(0, can)
        return f"{ask} eights {n}" if n else ask

    def _scene(self, place: FeatProgress) -> str:
        choices = place.next_scenes()
        if self.policy == "random" and len(choices) > 1:
            return f"scene {self.rng.choice(choices)}"
        return "scene"


@dataclass(frozen=True)
class FeatBots:
    """Heroes of the Fall's bots and what they count."""

    policies: tuple[str, ...] = POLICY_NAMES
    figures: tuple[Figure, ...] = FIGURES

    def bot(self, policy: str, rng: random.Random, players: int | None) -> FeatBot:
        if players is not None:
            raise SimError("a Heroes of the Fall story puts its whole cast in play: --players does not apply")
        return FeatBot(policy, rng)

    def count(self, events: Sequence[Mapping[str, Any]], session: Seat) -> Mapping[str, int]:
        found: Counter[str] = Counter()

        for event in events:
            kind = event.get("kind")
            if kind == "scene_started":
                found["scenes"] += 1
            elif kind == "feat_rolled":
                found["feats"] += 1
                found["feats_failed"] += 0 if event.get("success") else 1
                found["wyrd_spent"] += int(event.get("wyrd_spent", 0))
            elif kind == "shock_tested" and event.get("out_of_action"):
                found["shocks_failed"] += 1
            elif kind == "mettle_lost":
                found["mettle_lost"] += int(event.get("n", 0))
            elif kind == "character_killed":
                found["deaths"] += 1
        return found

    def final(self, session: Seat) -> Mapping[str, int]:
        return {}


BOTS = FeatBots()
