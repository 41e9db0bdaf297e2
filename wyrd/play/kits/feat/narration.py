"""Heroes of the Fall's narration: its sign of fate (scene tests and twists), then a command's telling moment.

Before any prose the kit adds what fate brings ([ours], written in the README's rules notes:
the text has no Wyrd roll, so its Wyrd points stand in for the Abacus's Wyrd):

* when a scene opens, the scene test: a d6 for each hero present and able to act, read
  as the Abacus reads the scene's first Wyrd roll (:func:`wyrd.oracle.question.scene_test`:
  any 6 interrupts the scene with that hero's twist, a best of 1-2 alters it with a
  mundane intrusion);
* a feat that spends Wyrd points (bought 8s) bends fate: the spender draws a twist
  (threat, eerie or a personal tie);
* Wyrd points awarded draw an intrusion (mundane or friendly) for the one awarded;
* a doubled answer of the oracle brings the asker a twist from the same tables.

Twists come from the story's own ``twists`` tables where it has them, else the generic
ones, with the narration's own dice, so the rules' faces never change.

:class:`FeatNarration` is the kit's narration hook. A scene that starts is told
with one of its own narration seeds (or the ``feat/scene/opening`` table); any
other command with its most telling event (a story's end before a feat, a feat
before a move, any of the rules' events before the oracle's answer), then a death
the event did not already tell, or the Wyrd spent to buy eights. An ``ask`` is told
by its answer, the world showing it exactly as rolled; a doubled answer's twist
keeps its own line before it. Each moment is a :class:`FeatMoment` with what it
settles (a feat won or lost, a wound, a death, an answer) for the firewall, told
from the tables of ``oracle/tables/feat.yaml`` or by a model; at most two a command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from functools import partial
from typing import Any

from wyrd.oracle.events import field
from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.grammar import Referent, person
from wyrd.oracle.narrators.base import ANSWER_SAID, NarrationRequest
from wyrd.oracle.narrators.telling import Command, KitNarration, Told, setting
from wyrd.play.kits.feat.texts import first_name
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.feat import GameState
from wyrd.stories.feat import FeatProgress

__all__ = ["NARRATION", "FeatMoment", "FeatNarration", "fate", "fate_twist", "story_twists"]


class FeatMoment(StrEnum):
    """The moments of a Heroes of the Fall game worth a line (the prompts in ``prompts/feat`` claim them)."""

    STORY_OPENING = "feat/story/opening"
    STORY_ENDING = "feat/story/ending"
    SCENE_OPENING = "feat/scene/opening"
    JOINS = "feat/joins"
    FEAT = "feat/feat"  # detail: success or failure
    WYRD_SPENT = "feat/wyrd-spent"
    OPPOSED = "feat/opposed"
    RACE = "feat/race"
    SHOCK = "feat/shock"  # detail: held or fell
    SURVIVAL = "feat/survive"  # detail: lived or died
    WOUND = "feat/wound"
    DEATH = "feat/death"
    RECOVER = "feat/recover"
    SEARCH = "feat/search"  # detail: found or missed
    REACTION = "feat/reaction"  # detail: warm or cold
    INITIATIVE = "feat/initiative"
    AWARD = "feat/award"
    MOVE = "feat/move"
    ANSWER = "feat/answer"  # detail: the oracle's answer, yes_and, yes, no or no_but
    INTERPRETATION = "feat/interpretation"  # a model's reading of an answer, a twist or an inspiration


_WON = frozenset({"success", "held", "lived", "found", "warm"})
_LOST = frozenset({"failure", "fell", "died", "missed", "cold"})
_HURT = frozenset({FeatMoment.WOUND, FeatMoment.DEATH})


def _moment(event: Event) -> tuple[str, dict[str, Any]] | None:
    """The table that tells an event, and what its placeholders are filled with (None: untold)."""
    get = partial(field, event)  # the fields of the kind just checked
    kind = event.kind
    who = first_name(str(get("character", "")))
    if kind == "story_chosen":
        return "feat/story/opening", {"story": get("title")}
    if kind == "story_ended":
        return "feat/story/ending", {"story": get("title"), "standing": [first_name(n) for n in get("standing")]}
    if kind == "opposed_decided":
        loser = get("opponent") if get("winner") == get("active") else get("active")
        return "feat/opposed/won", {"character": first_name(get("winner")), "rival": first_name(loser),
                                    "trait": get("trait")}
    if kind == "race_decided":
        loser = get("rival") if get("winner") == get("runner") else get("runner")
        return "feat/race/won", {"character": first_name(get("winner")), "rival": first_name(loser)}
    if kind == "survival_tested":
        return f"feat/survive/{'lived' if get('survived') else 'died'}", {"character": who, "cause": get("cause")}
    if kind == "shock_tested":
        return f"feat/shock/{'held' if get('success') else 'fell'}", {"character": who}
    if kind == "search_made":
        return f"feat/search/{'found' if get('found') else 'missed'}", {"character": who, "thing": get("target")}
    if kind == "reaction_tested":
        return f"feat/reaction/{'warm' if get('favourable') else 'cold'}", {"character": who,
                                                                              "toward": get("toward")}
    if kind == "initiative_decided":
        return "feat/initiative", {"character": first_name(get("order")[0])}
    if kind == "feat_rolled":
        trait = get("trait") if get("difficulty") is not None else ""  # not a bare Feat level's reason
        return f"feat/feat/{'success' if get('success') else 'failure'}", {"character": who, "trait": trait}
    simple = {"mettle_lost": "feat/wound", "character_killed": "feat/death", "character_recovered": "feat/recover",
              "wyrd_awarded": "feat/award", "moved": "feat/move"}
    if kind in simple:
        return simple[str(kind)], {"character": who, "cause": get("cause", ""), "pace": get("pace", "")}
    if kind == "character_created":
        return "feat/joins", {"character": first_name(str(get("name"))), "concept": get("concept", "")}
    if kind == "answer":
        asker = get("asker")
        return f"feat/answer/{get('answer')}", {"character": first_name(str(asker)) if asker else "",
                                                "question": str(get("question", ""))}
    return None


_ORDER = ("story_ended", "story_chosen", "opposed_decided", "race_decided", "survival_tested", "shock_tested",
          "search_made", "reaction_tested", "initiative_decided", "feat_rolled", "mettle_lost", "character_recovered",
          "wyrd_awarded", "moved", "character_created", "answer")


def _kind_of(table: str) -> tuple[FeatMoment, str]:
    """The moment a table tells (the longest moment its id begins with) and the rest of the id as the detail."""
    moment = max((m for m in FeatMoment if table == m.value or table.startswith(m.value + "/")), key=len)
    return moment, table[len(moment.value) + 1:]


def _people(follower: object) -> dict[str, Referent]:
    """The story's people by full and first name (the texts name heroes by their first), with pronouns."""
    story = follower.story if isinstance(follower, FeatProgress) else None
    found: dict[str, Referent] = {}
    for spec in [*story.cast, *story.others] if story is not None else []:
        if spec.pronouns:
            found[spec.name] = person(spec.name, spec.pronouns)
            found.setdefault(first_name(spec.name), person(first_name(spec.name), spec.pronouns))
    return found


def _request(table: str, context: Mapping[str, Any], mark: str, event: Event | None,
             cast: list[CharacterFacts]) -> NarrationRequest:
    moment, detail = _kind_of(table)
    success = True if detail in _WON else (False if detail in _LOST else None)
    death = moment == FeatMoment.DEATH or detail == "died"
    who = context.get("character")
    said = (f"For {who or 'everyone'}: {moment.value.split('/', 1)[1].replace('/', ' ')}"
            + (f", {detail}" if detail else "") + ".")
    if moment == FeatMoment.ANSWER:  # the question and its answer, exactly as rolled
        asked = f", asked by {who}," if who else ""
        said = (f"The answer to {str(context.get('question') or 'the question')!r}{asked} is "
                f"{ANSWER_SAID.get(detail, detail)}.")
    return NarrationRequest(
        moment=moment, detail=detail or None, events=[dict(event)] if event else [], characters=cast,
        subject=str(who) if who else None, told_by=[table], values=dict(context), success=success,
        harm=moment in _HURT or death, death=death, marks={"moment": mark}, said=said)


def story_twists(follower: Any) -> tuple[dict[str, list[str]], str]:
    """The story's own twist tables and its id (none without a story)."""
    story = getattr(follower, "story", None)
    if story is None:
        return {}, "story"
    return {k: list(v) for k, v in story.twists.items()}, story.id


def fate_twist(character: str, six: bool, dice: Dice, follower: Any, deck: Any = None, tables: Any = None,
               result: int | None = None) -> Event:
    """One twist for ``character``: a 6-kind (threat, eerie, tie) or an intrusion (mundane, friendly)."""
    from wyrd.oracle.tables import roll
    from wyrd.oracle.twists import category_table, draw_twist

    entries, story = story_twists(follower)
    category = roll(category_table(six), dice).row
    return draw_twist(first_name(character), category, dice, result=result if result is not None else (6 if six else 1),
                      story_tables=entries, deck_state=deck, tables=tables, story=story, generic="feat/twist/")


def _present(after: Any, follower: Any) -> list[str]:
    if not isinstance(after, GameState):
        return []
    story = getattr(follower, "story", None)
    heroes = [c.name for c in story.cast] if story is not None else list(after.characters)
    return [n for n in heroes if n in after.characters and not after.characters[n].dead
            and not after.characters[n].out_of_action]


def fate(command: Command) -> list[Event]:
    """What Heroes of the Fall's sign of fate adds to a command (see the module docstring)."""
    from wyrd.oracle.question import scene_test

    out: list[Event] = []
    dice, follower = command.dice, command.follower
    for event in command.events:
        kind = event.kind
        if kind == "scene_started":
            present = _present(command.after, follower)
            if not present:
                continue
            results = {first_name(n): dice.roll(1, 6, f"scene test: {first_name(n)}").faces[0] for n in present}
            test = scene_test(results)
            out.append(test.event(str(field(event, "scene"))))
            for name in test.interrupted_by:
                out.append(fate_twist(name, True, dice, follower, command.deck, command.tables))
            if test.intrusion is not None:
                lowest = min(results, key=lambda n: results[n])
                out.append(_mundane(lowest, dice, follower, command, results[lowest]))
        elif kind == "feat_rolled" and field(event, "wyrd_spent"):
            out.append(fate_twist(str(field(event, "character")), True, dice, follower, command.deck, command.tables))
        elif kind == "wyrd_awarded" and int(field(event, "n", 0)) > 0:
            out.append(fate_twist(str(field(event, "character")), False, dice, follower, command.deck,
                                  command.tables))
    return out


def _mundane(character: str, dice: Dice, follower: Any, command: Command, result: int) -> Event:
    """The scene test's intrusion, always mundane (DESIGN.md, as in the Abacus)."""
    from wyrd.oracle.twists import draw_twist

    entries, story = story_twists(follower)
    return draw_twist(character, "mundane", dice, result=result, story_tables=entries, deck_state=command.deck,
                      tables=command.tables, story=story, generic="feat/twist/")


class FeatNarration(KitNarration):
    """The feat kit's narration hook (see the module docstring)."""

    def tell(self, command: Command) -> Told:
        added = fate(command)
        if not command.prose:
            return Told(added=added)
        events = command.events
        after = command.after
        cast = [CharacterFacts(name=c.name, concept=c.concept)
                for c in (after.characters.values() if isinstance(after, GameState) else [])]
        people = _people(command.follower)
        told: list[NarrationRequest] = []
        scene = next((e for e in events if e.kind == "scene_started"), None)
        if scene is not None:
            seeds: Sequence[str] = field(scene, "narration") or []
            if seeds:
                told.append(NarrationRequest(
                    moment=FeatMoment.SCENE_OPENING, events=[dict(scene)], characters=cast, seeds=list(seeds),
                    scene=str(field(scene, "title", "")), own_words=True, death=False, harm=False,
                    marks={"moment": "scene_opening"}))
            else:
                told.append(_request("feat/scene/opening", {"scene": field(scene, "title")}, "scene_opening", scene,
                                     cast))
        kinds = [str(e.kind) for e in events]
        main = next((events[kinds.index(k)] for k in _ORDER if k in kinds), None)
        found = _moment(main) if main is not None and scene is None else None
        if found is not None and main is not None:
            told.append(_request(found[0], found[1], str(main.kind), main, cast))
        died = next((e for e in events if e.kind == "character_killed"), None)
        if died is not None and "survival_tested" not in kinds and main is not died:
            told.append(_request("feat/death", {"character": first_name(field(died, "character"))}, "character_killed",
                                 died, cast))
        elif any(e.kind == "feat_rolled" and field(e, "wyrd_spent") for e in events):
            bought = next(e for e in events if e.kind == "feat_rolled" and field(e, "wyrd_spent"))
            told.append(_request("feat/wyrd-spent", {"character": first_name(field(bought, "character"))}, "wyrd_spent",
                                 bought, cast))
        progress = command.follower if isinstance(command.follower, FeatProgress) else None
        story = progress.story if progress is not None else None
        current = progress.current if progress is not None else None
        here = next((s for s in story.scenes if s.id == current), None) if story is not None else None
        where = setting(story, here.place if here else None)
        update = {**where, **({"referents": people} if people else {})}
        return Told(added=added, moments=[r.model_copy(update=update) for r in told[:2]], setting=where)


NARRATION = FeatNarration()
