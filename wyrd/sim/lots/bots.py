"""Bots for Thaeborn: they take the scenario's characters and play what each scene calls for.

A scene calls for assessments, checks, the world's secret casts and perhaps a
fight (``stories.lots.Scene``). The bot plays them in that order, each by the
standing character best in the Discipline. A fight goes in rounds until its NPC
is incapacitated or every character is: the NPC strikes one standing character
(chosen with the run's generator), who casts with ``defend`` (only players roll;
when the NPC is reeling from a failed Mettle test, the rules spend that strike as
its lost action); then each standing character attacks it. Then ``scene`` moves on; after the last
scene it closes the story.

The policies (``--policy``):

* ``cautious`` attacks with the fight's effort, spends Portents to re-tell its own
  failed checks and defences (1 Portent for one's own cast), and rests everyone in
  Pain before the next scene.
* ``bold`` attacks with 2 more effort than the fight's, re-tells its own missed
  attacks, and rests only those incapacitated.
* ``random`` chooses the effort (the fight's, up to 2 more), whether to re-tell a
  failure, and whether to rest each character in Pain, at random.

The run is over when the story has closed, or every player character is
incapacitated at once (the party fell).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import wyrd.rules.lots as L
from wyrd.sim.bots import Figure, Outcome, kinds
from wyrd.sim.lots.moves import (
    Assess,
    Check,
    Enlist,
    LastCast,
    Lots,
    Move,
    NextScene,
    Person,
    Place,
    Rest,
    Retell,
    Strike,
    Table,
    line,
    spoken,
)
from wyrd.sim.simulator import POLICY_NAMES, SimError
from wyrd.stories.lots import Scenario, ScenarioPlay, Scene

if TYPE_CHECKING:
    from wyrd.play.engine.reply import Reply
    from wyrd.play.engine.session import Session

__all__ = ["BOTS", "FIGURES", "LotsBot", "LotsBots", "last_cast"]

FIGURES = (
    Figure("scenes", "scenes begun"),
    Figure("casts", "casts of lots"),
    Figure("checks_failed", "checks failed"),
    Figure("blows_taken", "blows landed on the characters"),
    Figure("pain", "Pain taken by the characters"),
    Figure("incapacitated", "characters incapacitated"),
    Figure("actions_lost", "actions lost reeling"),
    Figure("portents", "Portents spent"),
    Figure("npcs_down", "NPCs incapacitated"),
)
OWN_CAST = 1  # Portents a Re-tell of one's own cast costs
BOLD_EFFORT = 2  # bold strikes harder than the scenario asks by this much


def _state(session: Session) -> L.GameState:
    state = session.state
    assert isinstance(state, L.GameState), "a Thaeborn bot plays a Thaeborn session"
    return state


def _progress(session: Session) -> ScenarioPlay:
    found = session.follower
    assert isinstance(found, ScenarioPlay), "a Thaeborn session follows a scenario"
    return found


def _players(state: Table) -> list[Person]:
    return [c for c in state.characters.values() if not c.npc]


def _standing(state: Table) -> list[Person]:
    return [c for c in _players(state) if not c.condition.incapacitated]


def last_cast(events: Sequence[Mapping[str, Any]]) -> LastCast | None:
    """The latest check a line's events cast, and whether it went against the one who cast it."""
    cast = next((e for e in reversed(events) if e.get("kind") == "check_cast"), None)
    if cast is None:
        return None
    form = str(cast.get("form"))
    blows = [e for e in events if e.get("kind") == "attack_resolved" and e.get("cast") == cast.get("cast")]
    if form == "attack":
        failed = bool(blows) and not blows[0].get("landed")
    elif form == "defence":
        failed = bool(blows) and bool(blows[0].get("landed"))
    else:
        failed = cast.get("outcome") != "success"
    who = cast.get("character")
    return LastCast(who if isinstance(who, str) else None, form, failed)


@dataclass
class LotsBot:
    """One run's players: a session types their moves as lines, the plain-data table plays them."""

    policy: str
    rng: random.Random
    players: int | None
    scene: str | None = None
    calls: list[str] = field(default_factory=list)  # the scene's calls still to play ("check 0", ...)
    fighting: bool = False
    turn: list[Strike] = field(default_factory=list)  # this round's blows still to come
    rested: set[str] = field(default_factory=set)
    spec: Scene | None = None  # the scene whose calls these are

    def over(self, session: Session) -> Outcome | None:
        return self.over_at(_state(session), _progress(session))

    def next_line(self, session: Session, last: Reply | None) -> str:
        cast = last_cast(kinds(last.events)) if last is not None else None
        return line(self.next_move(_state(session), _progress(session), cast))

    def over_at(self, state: Table, place: Place) -> Outcome | None:
        """How the run ended, or None while it goes on."""
        if place.ended:
            return Outcome.ENDED
        players = _players(state)
        if players and all(c.condition.incapacitated for c in players):
            return Outcome.FELL
        return None

    def next_move(self, state: Table, place: Place, last: LastCast | None) -> Move:
        """What to do now, given the game and the latest check the previous move cast."""
        retell = self._retell(last, state)
        if retell is not None:
            return retell
        wanted = self._party(place.scenario)
        players = _players(state)
        if not players or len(players) < len(wanted):
            return Enlist(tuple(n for n in wanted if n not in state.characters))
        current = place.current
        if current is not None and current.id != self.scene:
            self._begin(current)
        while self.calls:
            move = self._call(self.calls.pop(0), state)
            if move is not None:
                return move
        if self.fighting and current is not None and current.fight is not None:
            strike = self._fight(state, current)
            if strike is not None:
                return strike
            self.fighting = False
        return self._rest(state) or NextScene()

    # -- the party ------------------------------------------------------------------

    def _party(self, story: Scenario | None) -> list[str]:
        return [p.name for p in story.pregens[:self.players]] if story is not None and self.players else []

    def _best(self, state: Table, discipline: L.Discipline) -> str | None:
        able = _standing(state)
        return max(able, key=lambda c: c.discipline(discipline)).name if able else None

    # -- a scene's calls ----------------------------------------------------------------

    def _begin(self, scene: Scene) -> None:
        self.scene = scene.id
        self.calls = ([f"assess {i}" for i in range(len(scene.assess))]
                      + [f"check {i}" for i in range(len(scene.checks))]
                      + [f"lots {i}" for i in range(len(scene.lots))])
        self.fighting = scene.fight is not None
        self.turn, self.rested = [], set()
        self.spec = scene

    def _call(self, call: str, state: Table) -> Move | None:
        kind, _, index = call.partition(" ")
        scene = self.spec
        assert scene is not None
        if kind == "lots":
            return Lots(scene.lots[int(index)])
        if kind == "assess":
            a = scene.assess[int(index)]
            who = self._best(state, a.discipline)
            return Assess(who, a) if who is not None else None
        c = scene.checks[int(index)]
        who = self._best(state, c.discipline)
        return Check(who, c) if who is not None else None

    # -- a fight ------------------------------------------------------------------------

    def _fight(self, state: Table, scene: Scene) -> Strike | None:
        fight = scene.fight
        assert fight is not None
        enemy = state.characters.get(fight.npc)
        while True:
            standing = _standing(state)
            if enemy is None or enemy.condition.incapacitated or not standing:
                return None
            while self.turn:
                strike = self.turn.pop(0)
                who = spoken(strike.who)  # as the line names them
                if who in state.characters and not state.characters[who].condition.incapacitated:
                    return strike
            self.turn = self._round(standing, fight.npc, fight.effort)

    def _round(self, standing: Sequence[Person], npc: str, effort: int) -> list[Strike]:
        target = self.rng.choice(list(standing)).name
        blows = [Strike("defend", target, npc, effort)]
        for char in standing:
            blows.append(Strike("attack", char.name, npc, effort + self._extra()))
        return blows

    def _extra(self) -> int:
        if self.policy == "bold":
            return BOLD_EFFORT
        return self.rng.randint(0, BOLD_EFFORT) if self.policy == "random" else 0

    # -- Portents and rest --------------------------------------------------------------------

    def _retell(self, cast: LastCast | None, state: Table) -> Retell | None:
        """Re-tell the character's own failed cast, as the policy would."""
        who = state.characters.get(cast.character) if cast is not None and cast.character is not None else None
        if cast is None or who is None:
            return None
        if who.npc or who.portents < OWN_CAST or not cast.failed:
            return None
        # cautious re-tells what keeps them safe (checks, defences), bold its missed attacks
        mine = (cast.form == "attack") == (self.policy == "bold")
        wanted = self.rng.random() < 0.5 if self.policy == "random" else mine
        return Retell(who.name) if wanted else None

    def _rest(self, state: Table) -> Rest | None:
        for char in _players(state):
            if char.name in self.rested:
                continue
            self.rested.add(char.name)
            hurt = char.condition.pain > 0 or char.condition.incapacitated
            if self.policy == "cautious":
                wanted = hurt
            elif self.policy == "bold":
                wanted = char.condition.incapacitated
            else:
                wanted = hurt and self.rng.random() < 0.5
            if wanted:
                return Rest(char.name)
        return None


@dataclass(frozen=True)
class LotsBots:
    """Thaeborn's bots and what they count."""

    policies: tuple[str, ...] = POLICY_NAMES
    figures: tuple[Figure, ...] = FIGURES

    def bot(self, policy: str, rng: random.Random, players: int | None) -> LotsBot:
        if players is not None and players < 1:
            raise SimError(f"can't play {players} characters")
        return LotsBot(policy, rng, players)

    def count(self, events: Sequence[Mapping[str, Any]], session: Session) -> Mapping[str, int]:
        chars = _state(session).characters
        found: Counter[str] = Counter()

        def player(name: Any) -> bool:
            return name in chars and not chars[name].npc

        for event in events:
            kind = event.get("kind")
            if kind == "scene_opened":
                found["scenes"] += 1
            elif kind in ("check_cast", "lots_cast"):
                found["casts"] += 1
                if kind == "check_cast" and event.get("form") == "check" and event.get("outcome") != "success":
                    found["checks_failed"] += 1
            elif kind == "attack_resolved" and event.get("landed") and player(event.get("target")):
                found["blows_taken"] += 1
            elif kind == "pain_taken" and player(event.get("character")):
                found["pain"] += int(event.get("n", 0))
            elif kind == "incapacitated":
                found["incapacitated" if player(event.get("character")) else "npcs_down"] += 1
            elif kind == "action_lost" and player(event.get("character")):
                found["actions_lost"] += 1
            elif kind == "portent_spent":
                found["portents"] += int(event.get("cost", 0))
        return found

    def final(self, session: Session) -> Mapping[str, int]:
        return {}


BOTS = LotsBots()
