"""Thaeborn's fast simulator: the bots' moves played on plain data, as a play session would play them.

A play session (the checked path, :mod:`wyrd.sim.playthrough`) reads every line the
bots type, deep-copies the rules state for every action, builds a pydantic event for
everything that happens, narrates it and reads the story file again for every run.
The bots need none of that. :func:`fast_run` plays the same run on a :class:`Run`:
characters, the Portent window and where the scenario stands, as plain objects
changed in place, with the bots' figures counted as the events would have counted
them. It draws the same faces in the same order: the dice of a session's command
``n`` are ``Random(f"{seed}:{n}")``, WEAL then WOE for every cast, and so are
these. Every cast is read by the rules' own :func:`~wyrd.rules.lots.read` (once for
each check's numbers, all 16 casts at a time).

What it carries out is what the bots do (:mod:`wyrd.sim.lots.moves`): taking the
pregenerated characters, opening scenes (the first open way, NPCs coming in) and the
ending, checks, assessments, the world's casts, defences and attacks with their Pain
and Mettle tests, Re-tells and rest. Whatever the rules would refuse raises
:class:`Unsupported`, and so does a story whose lines the session might read
otherwise than here (:mod:`wyrd.sim.lots.lines`): the run is then played through a
session instead, and counted. ``tests/sim/test_fast_path_lots.py`` holds the two
paths to the same report.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import wyrd.rules.lots as L
from wyrd.rules.lots.fate import SIDES
from wyrd.sim.lots.bots import FIGURES, LotsBot
from wyrd.sim.lots.lines import Story, story_for
from wyrd.sim.lots.moves import Assess, Check, Enlist, LastCast, Lots, Move, NextScene, Rest, Retell, Strike
from wyrd.sim.playthrough import Game, Unsupported, cut_off, session_seed
from wyrd.sim.runner import run_seed
from wyrd.sim.summary import RunRecord
from wyrd.stories.lots import END, CheckCall, Scenario, Scene
from wyrd.stories.lots.branches import key_of

__all__ = ["FIRST_MOVE", "Char", "Run", "Unsupported", "fast_run"]

FIRST_MOVE = 3
"""The number of a session's first command the bots type (1 is its start, 2 the story chosen)."""

SUCCESS, FAILURE, WASTE = L.Result.SUCCESS, L.Result.FAILURE, L.Result.WASTE
FUMBLE = L.Lot.FUMBLE
PROWESS = L.Discipline.PROWESS


class Char:
    """A character as plain data: the sheet and the condition (its own ``condition``, as the bots read it)."""

    __slots__ = ("armour", "disciplines", "incapacitated", "loses_action", "mettle", "name", "npc", "pain",
                 "portents")

    def __init__(self, sheet: L.Character) -> None:
        self.name = sheet.name
        self.npc = sheet.npc
        self.disciplines = dict(sheet.disciplines)
        self.mettle = sheet.mettle
        self.armour = sheet.armour
        self.portents = sheet.portents
        self.pain = 0
        self.loses_action = False
        self.incapacitated = False

    @property
    def condition(self) -> Char:
        return self

    def discipline(self, which: L.Discipline) -> int:
        return self.disciplines[which]


Reading = tuple[L.Result, L.Lot]


@lru_cache(maxsize=4096)
def readings(attribute: int, difficulty: int, proficiency: int, tier: int, attack: bool) -> tuple[Reading, ...]:
    """The result and lot of each of the 16 casts, by ``(weal - 1) * 4 + woe - 1``, as the rules read them."""
    out = []
    for weal, woe in L.fate.all_casts():
        found = L.read(attribute, difficulty, L.read_lot(weal, woe), proficiency=proficiency, tier=tier,
                       attack=attack)
        out.append((found.result, found.lot))
    return tuple(out)


class Blow(NamedTuple):
    attacker: str
    target: str
    offense: int
    defense: int
    effort: int
    armour: int


class Cast(NamedTuple):
    """A cast in the Portent window: enough to cast it again, and every condition from just before it."""

    form: str  # check, attack, defence, mettle, bare
    roller: str | None
    numbers: tuple[int, int, int, int]  # attribute, difficulty, proficiency, tier
    blow: Blow | None
    call: CheckCall | None
    before: tuple[tuple[int, bool, bool], ...]


class Run:
    """One run's game on plain data: the characters, the Portent window, the story's progress, the figures."""

    def __init__(self, story: Story, seed: int) -> None:
        self.story = story
        self.scenario: Scenario = story.scenario
        self.seed = seed
        self.seq = FIRST_MOVE - 1
        self.characters: dict[str, Char] = {}
        self.window: list[Cast] = []
        self.figures = dict.fromkeys((f.key for f in FIGURES), 0)
        self.last: LastCast | None = None
        self.played: list[str] = []
        self.ended = False
        self.outcomes: dict[str, str] = {}
        self.current: Scene | None = None
        self._randint: Callable[[int, int], int] | None = None

    # -- the moves ----------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Apply one move, as the session would apply its line (a command of its own, with its own dice)."""
        self.seq += 1
        self._randint = None
        self.last = None
        if isinstance(move, Strike):
            if move.verb == "attack":
                self._attack(move)
            else:
                self._defend(move)
        elif isinstance(move, Check):
            self._check(move.who, move.call)
        elif isinstance(move, Retell):
            self._retell(move.who)
        elif isinstance(move, Assess):
            self._act(self._able(move.who))
        elif isinstance(move, Lots):
            self.window.clear()
            self._cast("bare", None, (0, 0, 0, 0), None, None)
        elif isinstance(move, Rest):
            self._rest(move.who)
        elif isinstance(move, NextScene):
            self._next_scene()
        elif isinstance(move, Enlist):
            self._enlist(move.names)

    def _enlist(self, names: tuple[str, ...]) -> None:
        wanted = names or tuple(p.name for p in self.scenario.pregens if p.name not in self.characters)
        if not wanted or any(n in self.characters or n not in self.story.pregens for n in wanted):
            raise Unsupported(f"can't take {', '.join(names) or 'all'}")
        for name in wanted:
            self.characters[name] = Char(self.story.pregens[name])

    def _able(self, who: str) -> Char:
        char = self.characters.get(who)
        if char is None or char.incapacitated:
            raise Unsupported(f"{who} can't act")
        return char

    def _act(self, char: Char) -> bool:
        """An action by choice: spent reeling if a failed Mettle test took it (False), else it goes ahead."""
        self.window.clear()
        if not char.loses_action:
            return True
        char.loses_action = False
        if not char.npc:
            self.figures["actions_lost"] += 1
        return False

    def _check(self, who: str, call: CheckCall) -> None:
        char = self._able(who)
        if char.npc:
            raise Unsupported(f"{who} is an NPC: only players roll")
        if self._act(char):
            base = char.disciplines[call.discipline]
            self._run_check((base, call.difficulty, base, call.difficulty), who, call)

    def _sides(self, strike: Strike) -> tuple[Char, Char]:
        """The player who casts for a blow and the NPC on the other side, as the rules would allow them."""
        char = self._able(strike.who)
        npc = self.characters.get(strike.npc)
        if char.npc or npc is None or npc is char or strike.effort < 1:
            raise Unsupported(f"{strike.who} can't {strike.verb} with {strike.npc}")
        return char, npc

    def _attack(self, strike: Strike) -> None:
        char, target = self._sides(strike)
        offense, defense = char.disciplines[PROWESS], target.disciplines[PROWESS]
        defended = not target.incapacitated
        if self._act(char):
            blow = Blow(char.name, target.name, offense, defense, strike.effort, target.armour)
            self._run_blow("attack", char.name, (offense, defense + defended, offense, defense), blow)

    def _defend(self, strike: Strike) -> None:
        char, striker = self._sides(strike)
        offense, defense = striker.disciplines[PROWESS], char.disciplines[PROWESS]
        # the blow is the striker's Action: a reeling striker spends it reeling, and nothing is cast
        if self._act(striker):
            blow = Blow(striker.name, char.name, offense, defense, strike.effort, char.armour)
            self._run_blow("defence", char.name, (defense, offense, defense, offense), blow)

    def _retell(self, who: str) -> None:
        payer = self.characters.get(who)
        if payer is None or payer.npc or not self.window:
            raise Unsupported(f"{who} can't re-tell a cast")
        record = self.window[-1]
        roller = self.characters[record.roller] if record.roller is not None else None
        cost = L.Whose.NPC.cost if roller is None or roller.npc else (
            L.Whose.OWN.cost if roller is payer else L.Whose.PLAYER.cost)
        if payer.portents < cost:
            raise Unsupported(f"{who} has too few Portents")
        payer.portents -= cost
        for char, (pain, reeling, down) in zip(self.characters.values(), record.before, strict=False):
            char.pain, char.loses_action, char.incapacitated = pain, reeling, down
        self.window.pop()
        self.figures["portents"] += cost
        if record.form == "bare":
            self._cast("bare", None, record.numbers, None, None)
        elif record.form == "mettle":
            assert record.roller is not None
            self._run_mettle(self.characters[record.roller], record.numbers)
        elif record.blow is not None:
            self._run_blow(record.form, record.roller, record.numbers, record.blow)
        else:
            assert record.roller is not None and record.call is not None
            self._run_check(record.numbers, record.roller, record.call)

    def _rest(self, who: str) -> None:
        char = self.characters.get(who)
        if char is None:
            raise Unsupported(f"there is no {who}")
        self.window.clear()
        char.pain -= min(char.pain, char.mettle)
        char.loses_action = False
        char.incapacitated = char.incapacitated and char.pain >= 2 * char.mettle

    # -- casting, and what a cast sets off ---------------------------------------------------

    def _cast(self, form: str, roller: str | None, numbers: tuple[int, int, int, int], blow: Blow | None,
              call: CheckCall | None) -> Reading:
        before = tuple((c.pain, c.loses_action, c.incapacitated) for c in self.characters.values())
        randint = self._randint
        if randint is None:
            randint = self._randint = random.Random(f"{self.seed}:{self.seq}").randint
        weal, woe = randint(1, SIDES), randint(1, SIDES)
        self.window.append(Cast(form, roller, numbers, blow, call, before))
        self.figures["casts"] += 1
        if form == "bare":
            return SUCCESS, L.read_lot(weal, woe)
        return readings(*numbers, form == "attack")[(weal - 1) * SIDES + woe - 1]

    def _run_check(self, numbers: tuple[int, int, int, int], who: str, call: CheckCall) -> None:
        result, _ = self._cast("check", who, numbers, None, call)
        failed = result is not SUCCESS
        self.figures["checks_failed"] += failed
        self.last = LastCast(who, "check", failed)
        if call.id is not None:  # the outcome the story follows: a WASTE leaves it unsettled
            key = key_of("check", call.id)
            if result is WASTE:
                self.outcomes.pop(key, None)
            else:
                self.outcomes[key] = "failure" if failed else "success"

    def _run_blow(self, form: str, roller: str | None, numbers: tuple[int, int, int, int], blow: Blow) -> None:
        result, _ = self._cast(form, roller, numbers, blow, None)
        landed = (result is SUCCESS) == (form == "attack")  # the attacker's cast by succeeding, the defender's not
        target = self.characters[blow.target]
        if landed and not target.npc:
            self.figures["blows_taken"] += 1
        self.last = LastCast(roller, form, landed != (form == "attack"))
        if landed:
            damage = L.damage_of(blow.effort, blow.offense - blow.defense)
            self._take_pain(target, L.pain_of(damage, blow.armour))

    def _take_pain(self, char: Char, n: int) -> None:
        char.pain += n
        if not char.npc:
            self.figures["pain"] += n
        if n <= 0 or char.incapacitated:
            return
        if not char.npc:
            self._run_mettle(char, (char.mettle, char.pain, char.mettle, char.pain))
            return
        # an NPC's test casts no lots: Mettle against the total Pain, the comparison alone
        down = char.pain >= 2 * char.mettle
        char.loses_action = char.loses_action or not (down or char.mettle >= char.pain)
        if down and not char.incapacitated:
            char.incapacitated = True
            self.figures["npcs_down"] += 1

    def _run_mettle(self, char: Char, numbers: tuple[int, int, int, int]) -> None:
        result, lot = self._cast("mettle", char.name, numbers, None, None)
        mettle, pain = numbers[0], numbers[1]
        down = pain >= 2 * mettle or (lot is FUMBLE and result is FAILURE)
        char.loses_action = char.loses_action or (result is not SUCCESS and not down)
        char.incapacitated = char.incapacitated or down
        if down:
            self.figures["incapacitated"] += 1
        self.last = LastCast(char.name, "mettle", result is not SUCCESS)

    # -- the story --------------------------------------------------------------------------

    def _next_scene(self) -> None:
        """The first open way from the scene (a check not made failed, a foe standing a fight lost), or the ending."""
        if self.ended:
            raise Unsupported("the story has ended")
        scene = self.current
        settled: dict[str, str] = {}
        if scene is not None:
            settled = {key_of("check", c.id): "failure" for c in scene.checks
                       if c.id is not None and key_of("check", c.id) not in self.outcomes}
            if scene.fight is not None:
                foe = self.characters.get(scene.fight.npc)
                settled[key_of("fight", scene.id)] = "won" if foe is not None and foe.incapacitated else "lost"
        known = {**self.outcomes, **settled}
        self.outcomes.update(settled)
        left = [s for s in self.scenario.scenes if s.id not in self.played]
        if scene is not None and scene.exits:
            ways = [w for w in scene.exits if (w.when is None or w.when.holds(known))
                    and (w.to == END or w.to not in self.played)]
            if ways:
                left = [s for s in left if s.id == ways[0].to]
        if not left:
            self.ended = True
            return
        scene = left[0]
        present = {n.casefold() for n in self.characters}
        names = [*scene.enters, *([scene.fight.npc] if scene.fight else [])]
        for name in dict.fromkeys(names):
            if name.casefold() not in present:
                self.characters[name] = Char(self.story.npcs[name])
        self.played.append(scene.id)
        self.current = scene
        self.figures["scenes"] += 1


def fast_run(game: Game, seed: int, index: int) -> RunRecord | None:
    """Play run ``index`` of ``seed`` on plain data, as :func:`~wyrd.sim.playthrough.play_run` would through a
    session; None if the story or the run holds something this table does not carry out."""
    story = story_for(game.story, game.content, game.players)
    if story is None:
        return None
    run = Run(story, session_seed(seed, index))
    bot = game.bots.bot(game.policy, random.Random(run_seed(seed, index, "policy")), game.players)
    assert isinstance(bot, LotsBot), "the plain-data table plays Thaeborn's own bots"
    lines = 0
    try:
        while (outcome := cut_off(bot.over_at(run, run), lines, game.step_cap)) is None:
            run.play(bot.next_move(run, run, run.last))
            lines += 1
    except Unsupported:
        return None
    return RunRecord(outcome, lines, (), run.figures)
