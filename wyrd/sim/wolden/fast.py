"""Wolden's fast simulator: the bots' moves applied to plain data, with the dice a session rolls.

A run through a play session (:func:`wyrd.sim.playthrough.play_run`, the checked path,
``Request(safe=True)``) reads the scenario again, parses every line, deep-copies the
rules state at every action and tells every moment; nearly all of a run's time goes
there, and none of it changes what the report counts. Here the same bot decides the
same moves (:meth:`wyrd.sim.wolden.bots.WoldenBot.decide`) and they are applied to a
:class:`~wyrd.sim.wolden.plain.PlainGame` as the rules core and the kit apply them,
drawing the same faces in the same order from the same seeded streams: a command's
rules dice (``"{seed}:{command}"``, made only when a die is rolled) and its story dice
(``"{seed}:{command}:story"``: the scene's line of narration, then the enemies'
actions as a fight's round begins). A die that nothing counted depends on and that
no later die of its stream depends on is not rolled: the narration's own dice (twists,
scene tests, a stream of their own), a montage's situation (always the last of its
command's rules dice), the scene's line of narration when no enemies act after it.

What the rules would refuse, and what is not played here, raises :class:`Unsupported`,
and that run is played again from its seed through a play session; so is every run of
a scenario :func:`~wyrd.sim.wolden.ready.ready` does not make ready. A run gives the
same record either way (``tests/sim/test_fast_path_wolden.py`` compares the reports).
"""

from __future__ import annotations

import random
from collections import Counter

import wyrd.rules.wolden as W
from wyrd.rules.wolden.downtime import DOWNTIME_WOUNDS, REST_DICE
from wyrd.rules.wolden.fight import HARM_DEALT
from wyrd.sim.faces import face
from wyrd.sim.playthrough import Game, Unsupported, cut_off, session_seed
from wyrd.sim.runner import run_seed
from wyrd.sim.summary import RunRecord
from wyrd.sim.wolden.bots import ABILITIES, Move, WoldenBot
from wyrd.sim.wolden.plain import Challenge, Char, Damage, Fight, Foe, Pending, PlainGame, Rounds
from wyrd.sim.wolden.ready import EncounterPlan, Ready, ready
from wyrd.stories.wolden import ScenarioProgress

__all__ = ["FIRST_COMMAND", "Unsupported", "play_fast"]

FIRST_COMMAND = 3  # a new session's `start` and `story` are commands 1 and 2
WON = (W.EncounterOutcome.DONE, W.EncounterOutcome.WON)


class Dice:
    """A run's dice: each command's rules dice and story dice, seeded as a session seeds them.

    A stream's generator is made at its first die in the command (seeding costs more than
    most commands), so a command that rolls nothing seeds nothing.
    """

    __slots__ = ("_rules", "_story", "command", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.command = FIRST_COMMAND
        self._rules: random.Random | None = None
        self._story: random.Random | None = None

    def next_command(self) -> None:
        self.command += 1
        self._rules = self._story = None

    def rules(self, sides: int) -> int:
        found = self._rules
        if found is None:
            found = self._rules = random.Random(f"{self.seed}:{self.command}")
        return face(found, sides)

    def story(self, sides: int) -> int:
        found = self._story
        if found is None:
            found = self._story = random.Random(f"{self.seed}:{self.command}:story")
        return face(found, sides)


def _total(char: Char) -> int:
    return sum(char.current(a) for a in ABILITIES)


class Run:
    """One run: the game, where the scenario stands, and what the report counts."""

    def __init__(self, kit: Ready, game: Game, seed: int, index: int) -> None:
        self.kit = kit
        self.step_cap = game.step_cap
        bot = game.bots.bot(game.policy, random.Random(run_seed(seed, index, "policy")), game.players)
        assert isinstance(bot, WoldenBot), "Wolden's fast simulator plays Wolden's bots"
        self.bot = bot
        self.state = PlainGame()
        self.place = ScenarioProgress(kit.scenario)
        self.figures: Counter[str] = Counter()
        self.dice = Dice(session_seed(seed, index))
        self.round_begun = False  # in the command under way (the enemies act as a fight's round begins)

    def play(self) -> RunRecord:
        lines = 0
        while (outcome := cut_off(self.bot.outcome(self.state, self.place), lines, self.step_cap)) is None:
            move = self.bot.decide(self.state, self.place)
            self.round_begun = False
            self.apply(move)
            lines += 1
            self.dice.next_command()
        return RunRecord(outcome, lines, (), dict(self.figures))

    def apply(self, move: Move) -> None:
        verb = move.verb
        if verb == "roll":
            self.roll()
        elif verb == "check":
            self.open(move)
        elif verb == "scene":
            self.scene()
        elif verb == "downtime":
            self.downtime(move)
        elif verb == "session":
            self.new_session()
        elif verb == "abandon":
            found = self.state.encounter
            self.end(W.EncounterOutcome.WITHDREW if isinstance(found, Fight) else W.EncounterOutcome.ABANDONED)
        elif verb == "pc":
            self.enlist(move.who)
        else:
            raise Unsupported(verb)

    # -- characters, scenes, sessions ---------------------------------------------------

    def enlist(self, who: str | None) -> None:
        chars = self.state.characters
        for sheet in self.kit.pregens:
            if sheet.name not in chars and (who is None or sheet.name == who):
                chars[sheet.name] = Char(sheet)

    def scene(self) -> None:
        place, story = self.place, self.kit.scenario
        ways = place.open_exits()
        found = story.scene(ways[0].to) if ways else None
        if found is None:
            place.ended = True
            return
        self.figures["scenes"] += 1
        place.played.append(found.id)
        if found.encounter is not None:
            self.start(self.kit.encounters[found.encounter])
        seeds = self.kit.seeds[found.id]
        if seeds and isinstance(self.state.encounter, Fight):
            self.dice.story(seeds)  # the scene's line of narration: the enemies' draws come after it
        self.enemies_act()

    def new_session(self) -> None:
        state = self.state
        state.sitting += 1
        state.downtime, state.session_run = [], state.sitting

    def downtime(self, move: Move) -> None:
        state, dice = self.state, self.dice
        assert move.who is not None and move.choice is not None
        char = state.characters[move.who]
        # the first downtime in a new sitting begins a new session (the rules compare the sittings' ids)
        if (state.session_run is not None or state.downtime) and state.sitting != state.session_run:
            state.downtime = []
        state.session_run = state.sitting
        if char.name in state.downtime:
            raise Unsupported("a second downtime in a session")
        cult = self.kit.cults[char.cult]
        choice = move.choice
        if choice == W.DowntimeChoice.TRAINING and all(char.holds(r.gift) for r in cult.powers.rows):
            raise Unsupported("every power held")
        if choice == W.DowntimeChoice.SHOPPING:
            raise Unsupported("shopping")
        char.damage = dict.fromkeys(char.damage, 0)
        char.wounds -= min(DOWNTIME_WOUNDS, char.wounds)
        char.slots += W.DOWNTIME_SLOTS
        char.out = False
        state.downtime.append(char.name)
        self.figures["downtimes"] += 1
        if choice == W.DowntimeChoice.TRAINING:
            while True:
                row = cult.powers.row(dice.rules(cult.powers.die))
                if not char.holds(row.gift):
                    self.gain(char, row.gift)
                    return
        elif choice == W.DowntimeChoice.REST:
            count, sides = REST_DICE
            healed = sum(dice.rules(sides) for _ in range(count))
            char.wounds -= min(max(healed, 0), char.wounds)
        else:
            carouse = cult.carousing.row(dice.rules(cult.carousing.die))
            if carouse.gift is not None:
                self.gain(char, carouse.gift)
            if carouse.ability is not None and char.scores[carouse.ability] < W.ABILITY_MAX:
                char.scores[carouse.ability] += 1
            self.wound(char, carouse.wounds)

    def gain(self, char: Char, gift: W.Gift) -> None:
        if char.holds(gift):
            return
        if gift.slots > char.free_slots:
            raise Unsupported("no room for a gift")
        char.gifts.append(gift)

    # -- encounters and rounds -------------------------------------------------------------

    def start(self, plan: EncounterPlan) -> None:
        chars = self.state.characters
        rounds = Rounds([n for n, c in chars.items() if not c.out])
        if not rounds.participants:
            raise Unsupported("nobody able to act")
        if plan.type == "fight":
            foes = {e.id: Foe(e.id, e.harm, e.damage, e.actions) for e in plan.enemies}
            fight = Fight(plan.id, rounds, foes)
            self.state.encounter = fight
            self.begin_round(fight)
        else:
            challenge = Challenge(plan.id, rounds, plan.rating, plan.rating, plan.danger)
            self.state.encounter = challenge
            self.begin_round(challenge)

    def begin_round(self, found: Challenge | Fight) -> None:
        self.place.targets = {}
        self.round_begun = True

    def end(self, outcome: W.EncounterOutcome) -> None:
        found = self.state.encounter
        if found is None:
            return
        self.state.encounter = None
        self.place.outcomes[found.id] = str(outcome)
        self.figures["encounters_won" if outcome in WON else "encounters_lost"] += 1
        if isinstance(found, Fight):
            self.place.targets = {}

    def settle(self) -> None:
        found = self.state.encounter
        if found is None:
            return
        chars = self.state.characters
        standing = [n for n in found.rounds.participants if not chars[n].out]
        if not standing:
            self.end(W.EncounterOutcome.LOST)
            return
        if all(n in found.rounds.acted for n in standing):
            found.rounds.number += 1
            found.rounds.acted = []
            self.begin_round(found)

    def enemies_act(self) -> None:
        """As a fight's round begins, whom each enemy standing goes for (the kit's, on the story dice)."""
        found = self.state.encounter
        if not isinstance(found, Fight) or not self.round_begun:
            return
        chars = self.state.characters
        standing = [c for n, c in chars.items() if n in found.rounds.participants and not c.out]
        if not standing:
            return
        dice = self.dice
        for foe in found.enemies.values():
            if foe.defeated:
                continue
            rows = foe.actions
            how = rows[dice.story(len(rows)) - 1] if len(rows) > 1 else rows[0]
            if how == "weakest":
                target = min(standing, key=_total)
            elif how == "strongest":
                target = max(standing, key=_total)
            else:
                target = standing[dice.story(len(standing)) - 1] if len(standing) > 1 else standing[0]
            self.place.targets[foe.id] = target.name

    # -- rolls -----------------------------------------------------------------------------

    def open(self, move: Move) -> None:
        found = self.state.encounter
        assert move.who is not None and move.ability is not None and found is not None
        against = move.enemy if isinstance(found, Fight) else found.id
        self.state.pending = Pending(move.who, move.ability, 1 + (move.gift is not None), against)

    def roll(self) -> None:
        state, dice = self.state, self.dice
        pending = state.pending
        assert pending is not None
        state.pending = None
        lead = state.characters[pending.lead]
        faces = [dice.rules(W.SIDES) for _ in range(pending.dice)]
        result = W.classify(max(faces) + lead.current(pending.ability), len(set(faces)) < len(faces))
        self.figures["checks"] += 1
        found = state.encounter
        if pending.against is None or found is None:
            raise Unsupported("a plain check")
        worst = result == W.Result.CRITICAL_FAILURE
        if isinstance(found, Challenge):
            found.rating = max(0, found.rating + result.rating_change)
            if found.rating == 0:
                self.end(W.EncounterOutcome.DONE)
            elif found.rating >= W.LOST_AT * found.start:
                self.end(W.EncounterOutcome.LOST)
            if found.danger is not None and not result.succeeded:
                self.strike(found.danger, lead, pending.ability, worst)
        else:
            foe = found.enemies[pending.against]
            dealt = HARM_DEALT[result]
            if dealt:
                foe.taken = min(foe.harm, foe.taken + dealt)
            if not result.succeeded:
                self.strike(foe.damage, lead, pending.ability, worst)
            if all(e.defeated for e in found.enemies.values()):
                self.end(W.EncounterOutcome.WON)
        if lead.name in found.rounds.participants and lead.name not in found.rounds.acted:
            found.rounds.acted.append(lead.name)
        self.settle()
        self.enemies_act()

    def strike(self, damage: Damage, char: Char, ability: W.Ability, maximum: bool) -> None:
        if char.out:
            return
        count, sides, bonus = damage
        n = count * sides + bonus if maximum else sum(self.dice.rules(sides) for _ in range(count)) + bonus
        if n <= 0:
            return
        lowered = min(char.current(ability), n)
        char.damage[ability] += lowered
        self.figures["harm"] += n
        self.wound(char, n - lowered)

    def wound(self, char: Char, n: int) -> None:
        if char.out or n <= 0:
            return
        fits = min(n, char.free_slots)
        if fits:
            char.wounds += fits
            self.figures["wounds"] += fits
        if fits < n:
            char.out = True
            self.figures["taken_out"] += 1



def play_fast(game: Game, seed: int, index: int) -> RunRecord | None:
    """Run ``index`` of ``seed`` on plain data; None if it meets what is not played here (the simulator
    then plays it through a play session, and counts it)."""
    kit = ready(game.story, game.content)
    if kit is None:
        return None
    try:
        return Run(kit, game, seed, index).play()
    except Unsupported:
        return None
