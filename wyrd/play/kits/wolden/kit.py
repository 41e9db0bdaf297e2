"""Playing Wolden: its verbs, and the hooks the shared play layer calls.

Importing this module registers the Wolden verbs (:mod:`wyrd.play.kits.wolden.verbs`,
:mod:`wyrd.play.kits.wolden.encounters`, :mod:`wyrd.play.kits.wolden.story`) and its
:class:`~wyrd.play.engine.kits.PlayHooks`: after each change the exact odds of an open
roll (:mod:`wyrd.rules.wolden.odds`) and what the rules say is due
(:func:`wyrd.rules.wolden.due`); the status, the sheets and the toolbar; one line of
text per event kind; and the narration hook (:mod:`wyrd.play.kits.wolden.narration`). The session follows the
scenario with :class:`wyrd.stories.wolden.ScenarioProgress`. Opening play begins a
new sitting (:mod:`wyrd.play.kits.wolden.sittings`): the text's "session".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import wyrd.rules.wolden as W
from wyrd.oracle.narrators.telling import LazyNarration
from wyrd.play.engine.events import ORACLE_ADDED, ORACLE_EVENTS, EventKinds, StoryChosen
from wyrd.play.engine.kits import Move, OracleHooks, PlayHooks
from wyrd.play.frontends.view import clean, short_names
from wyrd.play.kits.wolden import encounters, narrator, sittings, story  # noqa: F401  (with verbs, these register the verbs)
from wyrd.play.kits.wolden import words as vocabulary
from wyrd.play.kits.wolden.enemies import EnemyActed, plan_lines
from wyrd.play.kits.wolden.foresight import TENSION_WORDS, odds_lines, preview, tension
from wyrd.play.kits.wolden.texts import RECALL, TEXTS, ability_name, encounter_line
from wyrd.play.kits.wolden.verbs import VERBS, ScenarioEnded, SceneBegun, wolden
from wyrd.rules.actions import Event
from wyrd.stories.wolden import ScenarioProgress

__all__ = ["KIT", "due_lines", "odds_lines"]

def due_lines(state: W.GameState) -> list[str]:
    """What the rules say is owed now, as prompts."""
    lines: list[str] = []
    for step in W.due(state):
        if step.kind == W.StepKind.ROLL:
            lines.append("Roll the pool: `roll`, or `roll F F ...` with your own d12s; `cancel` calls it off.")
            continue
        found = state.encounter
        assert found is not None
        # Issue 18, point 5: with two or more to act and no roll open, say whose move it is (any order stands)
        nxt = f"{clean(step.who[0])}'s move; " if len(step.who) > 1 and state.pending is None else ""
        lines.append(f"Round {step.round} of {clean(found.name)}: {nxt}still to act, "
                     f"{', '.join(map(clean, step.who))} (`check WHO ABILITY`, or `pass WHO`; any order).")
        if isinstance(found, W.Extended) and found.situation is not None:
            text = next((s.text for s in found.situations if s.id == found.situation), found.situation)
            lines.append(f"The situation: {clean(text)}")
    return lines


def _hints(state: Any, events: Sequence[Event] = ()) -> list[str]:
    game = wolden(state)
    if not game.characters:
        make = "`pc add NAME CULT might=3 agility=2 mind=1 graces=0` (3, 2, 1, 0 in any order)"
        if game.cults:
            return [f"No characters yet: `pc take all` for the scenario's, or {make}; cults: {', '.join(game.cults)}."]
        return [f"No characters yet: {make}, the cult from the cult files (lantern-wardens, brine-choir); "
                "or `story the-drowned-bell` to play the bundled scenario."]
    out = [f"{clean(c.name)} is taken out until a downtime." for c in game.characters.values() if c.out]
    return narrator.opening_lines(game, events) + odds_lines(game) + due_lines(game) + out


def _plans(state: Any, follower: Any) -> list[str]:
    """Whom each enemy goes for this round, so the players know whom to defend; once a scene's
    business is done, where the story goes next."""
    targets = follower.targets if isinstance(follower, ScenarioProgress) else {}
    return plan_lines(wolden(state), targets) + narrator.way_hint(state, follower)


def _sheet(char: W.Character, cult: W.Cult | None) -> list[str]:
    head = f"{clean(char.name)} ({clean(cult.name if cult else char.cult)})"
    lines = [head + (f": {clean(char.concept)}" if char.concept else "") + (" [taken out]" if char.out else "")]
    scores = []
    for ability in W.Ability:
        now, score = char.current(ability), char.scores[ability]
        scores.append(f"{ability_name(ability)} {now}/{score}" if now != score else f"{ability_name(ability)} {score}")
    lines.append("  " + "  ".join(scores))
    gifts = ", ".join(clean(g.name) + (f" ({g.slots} slots)" if g.slots > 1 else "") for g in char.gifts)
    lines.append(f"  Slots {char.slots}: {gifts or 'no gifts'}; {char.wounds} wound{'s' * (char.wounds != 1)}; "
                 f"{char.free_slots} free")
    if char.items:
        lines.append(f"  Items: {', '.join(clean(i.name) for i in char.items)}")
    return lines


def _sheets(state: Any, name: str | None) -> list[str]:
    game = wolden(state)
    lines: list[str] = []
    for who in [name] if name else list(game.characters):
        char = game.characters[who]
        lines += _sheet(char, game.cults.get(char.cult))
    return lines


def _pregens(state: Any, follower: Any) -> list[str]:
    """Each pregen of the scenario with their whole sheet, marked taken or not (``pregens``)."""
    found = follower.scenario if isinstance(follower, ScenarioProgress) else None
    game = wolden(state)
    lines: list[str] = []
    for spec in found.pregens if found is not None else []:
        cult = game.cults.get(spec.cult)
        if cult is None:  # the scenario's cults come into play with `story`
            continue
        char = W.create_character(spec.name, cult, might=spec.might, agility=spec.agility, mind=spec.mind,
                                  graces=spec.graces, gifts=spec.gifts, concept=spec.concept)
        shown = _sheet(char, cult)
        shown[0] += " (taken)" if spec.name in game.characters else " (not taken yet)"
        lines += shown
    return lines


def _status(state: Any) -> list[str]:
    game = wolden(state)
    taken = f"; downtime taken by {', '.join(map(clean, game.downtime))}" if game.downtime else ""
    lines = [f"Session {game.session}{taken}."]
    lines.append(encounter_line(game.encounter) if game.encounter else "No encounter is under way.")
    return lines + _sheets(game, None) + odds_lines(game) + due_lines(game)


# The toolbar's abilities (Might and Mind share their first letters), then W wounds and S free slots.
_SHORT = {W.Ability.MIGHT: "Mt", W.Ability.AGILITY: "Ag", W.Ability.MIND: "Md", W.Ability.GRACES: "Gr"}


def _toolbar(state: Any) -> str:
    """One line: the encounter (rating and round, or the enemies' harm), then each character as they
    stand, by short name (the REPL lays it out on as many lines as its width needs)."""
    game = wolden(state)
    found = game.encounter
    if isinstance(found, W.Extended):
        parts = [f"{clean(found.name)} {found.rating}/{found.start} r{found.rounds.number}"]
    elif isinstance(found, W.Fight):
        foes = " ".join(f"{clean(e.name)} {e.taken}/{e.harm}" for e in found.enemies.values())
        parts = [f"{clean(found.name)} r{found.rounds.number}: {foes}"]
    else:
        parts = [f"session {game.session}"]
    short = short_names(game.characters)
    for char in game.characters.values():
        if char.out:
            parts.append(f"{short[char.name]} out")
            continue
        scores = " ".join(f"{_SHORT[a]}{char.current(a)}" for a in W.Ability)
        parts.append(f"{short[char.name]} {scores} W{char.wounds} S{char.free_slots}")
    return " | ".join(parts)


def _opening(state: Any, follower: Any) -> list[str]:
    """Play is opened (a new game or a resumed one): a new sitting, so a new session, begins."""
    sittings.begin()
    return []


def _askers(state: W.GameState) -> list[str]:
    return list(state.characters)


def _able(state: W.GameState) -> list[str]:
    return [n for n, c in state.characters.items() if not c.out]


def _oracle_twist(answer: Event, asker: str, state: Any, dice: Any, follower: Any) -> list[Event]:
    from wyrd.play.kits.wolden.fate import oracle_twist

    return oracle_twist(answer, asker, state, dice, follower)


ORACLE = OracleHooks(askers=_askers, present=_able, tension=tension, tension_words=TENSION_WORDS,
                     twist=_oracle_twist, reading="wolden/interpretation")

# The common moves, as buttons at the shared table: a roll while a check is open, else a check or the next scene.
MOVES = (
    Move("Roll", "roll", when=lambda state, follower: state.pending is not None),
    Move("Check...", "check ", send=False,
         when=lambda state, follower: state.pending is None and bool(state.characters)),
    Move("Next scene", "scene",
         when=lambda state, follower: state.pending is None and state.encounter is None and bool(state.characters)),
)

KIT = PlayHooks(ruleset="wolden", verbs=VERBS, hints=_hints, opening=_opening, follower_hints=_plans, status=_status,
                toolbar=_toolbar, sheet=_sheets, texts=TEXTS, recall=RECALL, follow=ScenarioProgress.restore,
                added_kinds=frozenset({"story_chosen", "enemy_acted"}) | ORACLE_ADDED,
                events=EventKinds(W.WoldenEvent, SceneBegun, ScenarioEnded, StoryChosen, EnemyActed,
                                  *ORACLE_EVENTS),
                tell=LazyNarration(f"{__package__}.narration:NARRATION"),
                words=vocabulary.words, complete=vocabulary.complete, quick_start="the-drowned-bell",
                scene_opens=frozenset({"scene_begun"}), oracle=ORACLE, frame=narrator.frame,
                stage_rules=narrator.stage_rules, exits=narrator.exits, spotlight=narrator.spotlight,
                preview=preview, pregens=_pregens, moves=MOVES)
