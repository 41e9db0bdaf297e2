"""Bots for Wolden: they enlist the scenario's characters and play its scenes to the ending.

Each turn the bot reads the Wolden state and the scenario's progress, as the
players read the table. An open roll is rolled. In an encounter, the first
participant still to act this round checks their best ability as it stands now
(damage counted), naming a gift they hold for the extra die; in a fight, against
an enemy. Between encounters, in a settled place, each character takes a
downtime once a session; then ``scene`` moves the scenario on, and after its last
scene tells the ending.

The policies (``--policy``):

* ``cautious`` strikes the enemy nearest to being beaten (ties: one that goes for
  the roller), rests at every downtime when hurt (training when whole), and calls
  a new session in a settled place when someone is still hurt (the players stop
  there and take up play another day: a new sitting), so that everyone rests
  again before going on.
* ``bold`` strikes the enemy that goes for the roller (else the toughest), trains
  at every downtime and never waits for a new session.
* ``random`` picks the roller's ability (one above 0), whether to name a gift, the
  enemy and the downtime at random.

The run is over when the scenario has told its ending, or every character is
taken out at once (the party fell).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

import wyrd.rules.wolden as W
from wyrd.play.kits.wolden import sittings
from wyrd.sim.bots import Figure, Outcome
from wyrd.sim.simulator import POLICY_NAMES, SimError
from wyrd.stories.wolden import Scenario, ScenarioProgress, SceneSpec

if TYPE_CHECKING:
    from wyrd.play.engine.reply import Reply
    from wyrd.play.engine.session import Session

__all__ = ["ABILITIES", "BOTS", "FIGURES", "Move", "Place", "Table", "WoldenBot", "WoldenBots"]

FIGURES = (
    Figure("scenes", "scenes begun"),
    Figure("checks", "checks rolled"),
    Figure("taken_out", "characters taken out"),
    Figure("wounds", "wounds taken"),
    Figure("harm", "ability damage taken"),
    Figure("encounters_won", "encounters done or won"),
    Figure("encounters_lost", "encounters lost"),
    Figure("downtimes", "downtimes taken"),
)
WON = ("done", "won")
ABILITIES = tuple(W.Ability)  # in the rules' order (an enum's own iteration is slow in a hot loop)


# What the bots read, as the players read the table: a session's rules state and scenario
# progress, or the plain data of the fast simulator (wyrd.sim.wolden.fast), which reads alike.
class Sheet(Protocol):
    @property
    def out(self) -> bool: ...
    @property
    def wounds(self) -> int: ...
    @property
    def damage(self) -> Mapping[W.Ability, int]: ...
    @property
    def gifts(self) -> Sequence[W.Gift]: ...
    def current(self, ability: W.Ability) -> int: ...


class Foe(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def harm(self) -> int: ...
    @property
    def taken(self) -> int: ...
    @property
    def defeated(self) -> bool: ...


class Turns(Protocol):
    @property
    def participants(self) -> Sequence[str]: ...
    @property
    def acted(self) -> Sequence[str]: ...


class Encounter(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def rounds(self) -> Turns: ...


class Battle(Encounter, Protocol):
    @property
    def enemies(self) -> Mapping[str, Foe]: ...


class Table(Protocol):
    """The game as the bot reads it."""

    @property
    def characters(self) -> Mapping[str, Sheet]: ...
    @property
    def pending(self) -> object | None: ...
    @property
    def encounter(self) -> Encounter | None: ...
    @property
    def downtime(self) -> Sequence[str]: ...


class Place(Protocol):
    """Where the scenario stands, as the bot reads it."""

    @property
    def scenario(self) -> Scenario | None: ...
    @property
    def ended(self) -> bool: ...
    @property
    def current(self) -> SceneSpec | None: ...
    @property
    def targets(self) -> Mapping[str, str]: ...


class Move(NamedTuple):
    """What the players do next, before it is typed: a verb and what it names (:attr:`line`)."""

    verb: str  # pc (take), roll, check, downtime, session, scene, abandon
    who: str | None = None  # pc: the character taken (None: all)
    ability: W.Ability | None = None
    gift: str | None = None
    enemy: str | None = None
    choice: W.DowntimeChoice | None = None

    @property
    def line(self) -> str:
        if self.verb == "pc":
            return "pc take " + (_quoted(self.who) if self.who else "all")
        if self.verb == "check":
            assert self.who is not None and self.ability is not None
            line = f"check {_quoted(self.who)} {self.ability.value}"
            line += f" gift {self.gift}" if self.gift is not None else ""
            return line + (f" vs {self.enemy}" if self.enemy is not None else "")
        if self.verb == "downtime":
            assert self.who is not None and self.choice is not None
            return f"downtime {_quoted(self.who)} {self.choice.value}"
        return self.verb


ROLL, SCENE, SESSION, ABANDON = Move("roll"), Move("scene"), Move("session"), Move("abandon")


def _quoted(name: str) -> str:
    return f'"{name}"'


def _state(session: Session) -> W.GameState:
    state = session.state
    assert isinstance(state, W.GameState), "a Wolden bot plays a Wolden session"
    return state


def _progress(session: Session) -> ScenarioProgress:
    found = session.follower
    assert isinstance(found, ScenarioProgress), "a Wolden session follows a scenario"
    return found


def _hurt(char: Sheet) -> bool:
    return char.out or char.wounds > 0 or any(n > 0 for n in char.damage.values())


@dataclass
class WoldenBot:
    """One run's players."""

    policy: str
    rng: random.Random
    players: int | None
    sessions_called: set[str] = field(default_factory=set)  # settled scenes where a new session was called

    def over(self, session: Session) -> Outcome | None:
        return self.outcome(_state(session), _progress(session))

    def outcome(self, state: Table, place: Place) -> Outcome | None:
        """:attr:`Outcome.ENDED` or :attr:`Outcome.FELL` once the run is over; None while it goes on."""
        if place.ended:
            return Outcome.ENDED
        chars = state.characters
        if chars and all(c.out for c in chars.values()):
            return Outcome.FELL
        return None

    def next_line(self, session: Session, last: Reply | None) -> str:
        move = self.decide(_state(session), _progress(session))
        if move.verb == "session":
            sittings.begin()  # the players stop here and take up play another day
        return move.line

    def decide(self, state: Table, place: Place) -> Move:
        """The next move (a new session is a new sitting: the caller begins it)."""
        wanted = self._party(place)
        if not state.characters or len(state.characters) < len(wanted):
            return self._enlist(state, wanted)
        if state.pending is not None:
            return ROLL
        if state.encounter is not None:
            return self._act(state, place, state.encounter)
        scene = place.current
        if scene is not None and scene.settled:
            rest = self._downtime(state)
            if rest is not None:
                return rest
            if (self.policy == "cautious" and scene.id not in self.sessions_called
                    and any(_hurt(c) for c in state.characters.values())):
                self.sessions_called.add(scene.id)
                return SESSION
        return SCENE

    def _party(self, place: Place) -> list[str]:
        """The pregenerated characters to play (none known: whoever `pc take all` brings)."""
        story = place.scenario
        return [p.name for p in story.pregens[:self.players]] if story is not None and self.players else []

    def _enlist(self, state: Table, wanted: Sequence[str]) -> Move:
        if not wanted:
            return Move("pc")
        return Move("pc", next(n for n in wanted if n not in state.characters))

    def _act(self, state: Table, place: Place, encounter: Encounter) -> Move:
        rounds = encounter.rounds
        waiting = [n for n in rounds.participants if n not in rounds.acted and not state.characters[n].out]
        if not waiting:  # nobody able is left to act: the rules end the round or the encounter
            return ABANDON
        who = waiting[0]
        char = state.characters[who]
        ability = self._ability(char)
        gift = None
        if char.gifts and (self.policy != "random" or self.rng.random() < 0.5):
            gift = char.gifts[0].id
        enemy = self._enemy(cast(Battle, encounter), place, who) if encounter.kind == "fight" else None
        return Move("check", who, ability, gift, enemy)

    def _ability(self, char: Sheet) -> W.Ability:
        if self.policy == "random":
            usable = [a for a in ABILITIES if char.current(a) > 0] or list(ABILITIES)
            return self.rng.choice(usable)
        return max(ABILITIES, key=char.current)  # ties: the first in the rules' order

    def _enemy(self, fight: Battle, place: Place, who: str) -> str:
        standing = [e for e in fight.enemies.values() if not e.defeated]
        if self.policy == "random":
            return self.rng.choice(standing).id
        mine = {enemy for enemy, target in place.targets.items() if target == who}
        if self.policy == "cautious":
            return min(standing, key=lambda e: (e.harm - e.taken, e.id not in mine)).id
        going = [e for e in standing if e.id in mine]
        return (going[0] if going else max(standing, key=lambda e: e.harm - e.taken)).id

    def _downtime(self, state: Table) -> Move | None:
        for name, char in state.characters.items():
            if name in state.downtime:
                continue
            if self.policy == "random":
                choice = self.rng.choice([W.DowntimeChoice.REST, W.DowntimeChoice.TRAINING,
                                          W.DowntimeChoice.CAROUSE])
            elif self.policy == "cautious" and _hurt(char):
                choice = W.DowntimeChoice.REST
            else:
                choice = W.DowntimeChoice.TRAINING
            return Move("downtime", name, choice=choice)
        return None


@dataclass(frozen=True)
class WoldenBots:
    """Wolden's bots and what they count."""

    policies: tuple[str, ...] = POLICY_NAMES
    figures: tuple[Figure, ...] = FIGURES

    def bot(self, policy: str, rng: random.Random, players: int | None) -> WoldenBot:
        if players is not None and players < 1:
            raise SimError(f"can't play {players} characters")
        return WoldenBot(policy, rng, players)

    def count(self, events: Sequence[Mapping[str, Any]], session: Session) -> Mapping[str, int]:
        found: Counter[str] = Counter()

        for event in events:
            kind = event.get("kind")
            if kind == "scene_begun":
                found["scenes"] += 1
            elif kind == "check_rolled":
                found["checks"] += 1
            elif kind == "wound_taken":
                found["wounds"] += int(event.get("n", 1))
            elif kind == "harm_taken":
                found["harm"] += int(event.get("n", 0))
            elif kind == "character_out":
                found["taken_out"] += 1
            elif kind == "downtime_taken":
                found["downtimes"] += 1
            elif kind in ("extended_ended", "fight_ended"):
                found["encounters_won" if event.get("outcome") in WON else "encounters_lost"] += 1
        return found

    def final(self, session: Session) -> Mapping[str, int]:
        return {}


BOTS = WoldenBots()
