"""The Wolden verbs that begin encounters: extended challenges, travel montages and fights.

An encounter is one of the scenario's (named by id or name: everything it needs
is copied into the arguments) or made up on the spot with a rating, or for a
fight, enemies written as ``NAME:HARM[:DAMAGE]``. The ``scene`` verb
(:mod:`wyrd.play.kits.wolden.story`) starts a scene's encounter through
:func:`start_encounter` with the same arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import wyrd.rules.wolden as W
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import UsageError, Words, parse_int, resolve
from wyrd.play.kits.wolden.verbs import (
    VERBS,
    WoldenVerb,
    corrected,
    pick,
    progress,
    scenario,
    take_names,
    take_who,
    wolden,
)
from wyrd.rules.dice import Dice
from wyrd.stories.wolden import ExtendedSpec, FightSpec, MontageSpec, Scenario, parse_damage

__all__ = ["encounter_args", "start_encounter"]


def _danger(words: Words) -> dict[str, int] | None:
    text = words.option("danger")
    if text is None:
        return None
    try:
        return parse_damage(text).model_dump()
    except ValueError as exc:
        raise words.fail(str(exc)) from None


def encounter_args(spec: ExtendedSpec | MontageSpec | FightSpec, story: Scenario) -> Args:
    """An encounter of the scenario as the arguments that start it."""
    base: Args = {"name": spec.name, "id": spec.id}
    if isinstance(spec, FightSpec):
        return {**base, "type": "fight", "enemies": _enemies([(story, e) for e in spec.enemies])}
    danger = parse_damage(spec.danger).model_dump() if spec.danger else None
    if isinstance(spec, ExtendedSpec):
        return {**base, "type": "extended", "rating": spec.rating, "danger": danger}
    rows = story.table(spec.table).situations
    return {**base, "type": "montage", "rating": spec.rating, "danger": danger, "per_check": spec.per_check,
            "situations": [{"id": s.id, "text": s.text} for s in rows]}


def _enemies(found: list[tuple[Scenario | None, str]]) -> list[dict[str, Any]]:
    """Enemies by scenario id (or ad hoc ``NAME:HARM[:DAMAGE]``); a second of a kind is numbered."""
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for story, word in found:
        if story is not None:
            spec = story.enemy(word)
            ident, name, harm, damage = spec.id, spec.name, spec.harm, spec.damage
        else:
            name, _, rest = word.partition(":")
            harm_text, _, damage = rest.partition(":")
            harm = parse_int(harm_text, f"{name}'s harm", low=1, high=99)
            ident, damage = W.encounters.slug(name, "enemy"), damage or "1d4+1"
        seen[ident] = seen.get(ident, 0) + 1
        if seen[ident] > 1:
            ident, name = f"{ident}-{seen[ident]}", f"{name} {seen[ident]}"
        try:
            dice = parse_damage(damage)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        out.append(W.Enemy(id=ident, name=name, harm=harm, damage=dice).model_dump(mode="json"))
    return out


def start_encounter(state: W.GameState, dice: Dice, enc: Mapping[str, Any]) -> W.Outcome:
    who = enc.get("participants") or []
    danger = W.DamageDice.model_validate(enc["danger"]) if enc.get("danger") else None
    if enc["type"] == "fight":
        return W.start_fight(state, dice, [W.Enemy.model_validate(e) for e in enc["enemies"]], participants=who,
                             name=enc["name"], ident=enc["id"])
    if enc["type"] == "montage":
        return W.start_montage(state, dice, enc["name"], enc["rating"],
                               [W.Situation.model_validate(s) for s in enc["situations"]], participants=who,
                               ident=enc["id"], danger=danger, per_check=bool(enc.get("per_check")))
    return W.start_extended(state, dice, enc["name"], enc["rating"], participants=who, ident=enc["id"],
                            danger=danger)


class _Encounter(WoldenVerb):
    kind: str

    def read(self, words: Words, state: W.GameState) -> Args:
        danger = _danger(words)
        each = "each-roll" in [w.casefold() for w in words.words]
        words.words = [w for w in words.words if w.casefold() != "each-roll"]
        name = words.take("NAME")
        rating = words.take_int("RATING", low=1, high=99) if str(words.peek()).isdigit() else None
        table = None if words.peek() in (None, "with") else words.take("TABLE")
        who = take_names(words, state) if words.keyword("with") else []
        words.done()
        if table is not None and self.kind != "montage":
            raise words.fail(f"did not understand {table!r}")
        return {"type": self.kind, "name": name, "rating": rating, "table": table, "danger": danger,
                "per_check": each, "participants": who}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "id" in args:
            return args
        if args["rating"] is None:  # one of the scenario's own
            story = scenario(ctx, f"{self.kind} encounters to name")
            specs = {e.id: e for e in (story.extended if self.kind == "extended" else story.montages)}
            spec = specs[pick(args["name"], {i: s.name for i, s in specs.items()}, self.kind)]
            return {**encounter_args(spec, story), "participants": args["participants"]}
        out = {**args, "id": None}
        if self.kind == "montage":
            out["situations"] = _situations(args["table"], ctx)
        return out

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return start_encounter(state, dice, args)


def _situations(table: str | None, ctx: PlayContext) -> list[dict[str, str]]:
    """A montage's situations: a table of the scenario's, else one of the bundled oracle's."""
    from wyrd.oracle.tables import bundled_tables

    story = progress(ctx).scenario
    if story is not None and story.situation_tables:
        tables = {t.id: t.name for t in story.situation_tables}
        chosen = story.table(pick(table, tables, "situation table") if table else story.situation_tables[0].id)
        return [{"id": s.id, "text": s.text} for s in chosen.situations]
    bundled = {k.removeprefix("wolden/situations/"): k for k in bundled_tables() if k.startswith("wolden/situations/")}
    found = bundled_tables()[bundled[resolve(table or "road", list(bundled), "situation table")]]
    return [{"id": f"{found.id.rsplit('/', 1)[-1]}-{i}", "text": r.text} for i, r in enumerate(found.rows, 1)]


@VERBS.register
class Extended(_Encounter):
    """extended NAME [RATING] [with A, B] [danger=1d4]

    Begin an extended challenge: a difficulty rating that every roll against it
    moves (+4 critical failure, +2 failure, -1 partial, -2 success, -4 critical
    success). Done at 0; lost at twice its start. Everyone standing takes part
    unless `with` names who. In a scenario, `extended NAME` alone begins one of
    its own; with a RATING it is made up on the spot ("quoted NAME" for several
    words). With danger=, failures and partials deal that damage to those involved.
    """

    key = "extended"
    completes = ("challenge", "number", "with", "character")
    kind = "extended"


@VERBS.register
class Montage(_Encounter):
    """montage NAME [RATING] [TABLE] [with A, B] [danger=1d4] [each-roll]

    Begin a travel montage: an extended challenge whose situations are drawn
    from a table, a new one each round (each-roll: for every roll). In a
    scenario, `montage NAME` alone begins one of its own; with a RATING, TABLE
    is one of the scenario's situation tables (default: its first), or without
    a scenario one of the bundled ones (road).
    """

    key = "montage"
    completes = ("montage", "number", "with", "character")
    kind = "montage"


@VERBS.register
class Fight(WoldenVerb):
    """fight ENEMY... [with A, B]

    Begin a fight. Each ENEMY is one of the scenario's enemies (by id or name;
    name one twice for two of them), a whole fight of the scenario by its id,
    or made up on the spot as NAME:HARM[:DAMAGE] (wolf:2:1d6; damage 1d4+1 by
    default). Every roll in a fight is made against one enemy (check ... vs ENEMY).
    """

    key = "fight"
    completes = ("enemy",)

    def read(self, words: Words, state: W.GameState) -> Args:
        enemies = words.until("with")
        if not enemies:
            raise words.fail("name at least one enemy")
        who = take_names(words, state) if words.keyword("with") else []
        words.done()
        return {"type": "fight", "enemies": enemies, "participants": who}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "id" in args:
            return args
        story = progress(ctx).scenario
        words = list(args["enemies"])
        if story is not None and len(words) == 1 and ":" not in words[0] and story.fights:
            fights = {f.id: f.name for f in story.fights}
            try:
                spec = next(f for f in story.fights if f.id == pick(words[0], fights, "fight"))
                return {**encounter_args(spec, story), "participants": args["participants"]}
            except UsageError:
                pass  # not a fight: an enemy
        found: list[tuple[Scenario | None, str]] = []
        for word in words:
            if ":" in word:
                found.append((None, word))
            else:
                story = scenario(ctx, "enemies to name (or make one up: NAME:HARM)")
                found.append((story, pick(word, {e.id: e.name for e in story.enemies}, "enemy")))
        return {"type": "fight", "name": "fight", "id": None, "enemies": _enemies(found),
                "participants": args["participants"]}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return start_encounter(state, dice, args)


@VERBS.register
class Pass(WoldenVerb):
    """pass WHO

    WHO lets their turn in this round go by. A round ends once every participant
    still standing has rolled, helped or passed. In a fight it is not safe: each
    enemy going for WHO this round strikes (its damage, against Agility), since
    WHO made no roll to meet it.
    """

    key = "pass"
    completes = ("character",)

    def read(self, words: Words, state: W.GameState) -> Args:
        who = take_who(words, state)
        words.done()
        return {"who": who}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "exposed" in args:
            return args
        # whom each enemy goes for this round was drawn when the round began (enemy_acted)
        targets = progress(ctx).targets if isinstance(wolden(ctx.state).encounter, W.Fight) else {}
        return {**args, "exposed": sorted(e for e, target in targets.items() if target == args["who"])}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        if not corrected(args, "exposed"):
            # the first reading: a pass cost nothing, and who was going for whom was not saved
            return W.pass_turn(state, dice, args["who"])
        return W.pass_turn(state, dice, args["who"], exposed_to=args.get("exposed", []))


@VERBS.register
class Abandon(WoldenVerb):
    """abandon

    Give up the extended challenge or montage under way, or leave the fight
    (seed 001: after each round the characters weigh up whether to risk another).
    """

    key = "abandon"
    aliases = ("withdraw",)

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        if isinstance(state.encounter, W.Fight):
            return W.end_fight(state, dice)
        return W.abandon(state, dice)
