"""Wolden scenarios: the :class:`Scenario` model, and the checks that it holds together.

A Wolden scenario is a YAML file in a ``wolden`` folder of story content (found and
read by :mod:`wyrd.stories.wolden.loader`) and checked by :class:`Scenario`. It names
the cults it uses, offers pregenerated characters, and lists its encounters and its
scenes; the pieces are in :mod:`wyrd.stories.wolden.specs`. :meth:`Scenario.faults`
finds, with the references, an exit to nothing, a branch whose condition can never
hold, an outcome that opens no way on, and a scene no way reaches.

How far play has come in a scenario is :mod:`wyrd.stories.wolden.progress`. This
module knows the rules' shapes (:mod:`wyrd.rules.wolden`), never the play layer.
"""

from collections.abc import Iterator, Sequence
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, model_validator

from wyrd.rules.defaults import empty_list
from wyrd.rules.wolden import EncounterOutcome
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wolden.specs import (
    END,
    EndingLine,
    EnemySpec,
    ExitSpec,
    ExtendedSpec,
    FightSpec,
    Ident,
    MontageSpec,
    PregenSpec,
    SceneSpec,
    SituationTable,
    Spec,
    StandingRule,
    outcomes_of,
)
from wyrd.stories.wording import LanguageCode

__all__ = ["Scenario"]

TwistCategory = Literal["threat", "eerie", "tie", "mundane", "friendly"]
"""The oracle's twist categories (:mod:`wyrd.oracle.twists`), as a story names them."""


class Scenario(Spec):
    ruleset: Literal["wolden"] = "wolden"
    id: Ident
    title: str
    premise: str
    tone: list[str] = Field(default_factory=empty_list)
    language: LanguageCode = ""
    cults: list[Ident] = Field(min_length=1)
    pregens: list[PregenSpec] = Field(default_factory=empty_list)
    enemies: list[EnemySpec] = Field(default_factory=empty_list)
    situation_tables: list[SituationTable] = Field(default_factory=empty_list)
    extended: list[ExtendedSpec] = Field(default_factory=empty_list)
    montages: list[MontageSpec] = Field(default_factory=empty_list)
    fights: list[FightSpec] = Field(default_factory=empty_list)
    scenes: list[SceneSpec] = Field(min_length=1)
    narration: list[str] = Field(default_factory=empty_list)
    ending: list[EndingLine] = Field(min_length=1)
    # rules that stand in every scene of the story
    rules: list[StandingRule] = Field(default_factory=empty_list)
    # the story's own twists, by category (threat, eerie, tie, mundane, friendly): a critical's twist
    twists: dict[TwistCategory, list[Annotated[str, Field(min_length=1)]]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> "Scenario":
        # The linter asks for every fault with its path (context LINTING); play stops at the first.
        if not (info.context or {}).get(LINTING):
            for _, message in self.faults():
                raise ValueError(message)
        return self

    def faults(self) -> Iterator[tuple[tuple[str | int, ...], str]]:
        """What does not hold together (ids twice, references to nothing), each with its path in the file."""
        encounters = [*(("extended", i, e.id) for i, e in enumerate(self.extended)),
                      *(("montages", i, m.id) for i, m in enumerate(self.montages)),
                      *(("fights", i, f.id) for i, f in enumerate(self.fights))]
        yield from _unique("encounter", [((kind, i, "id"), ident) for kind, i, ident in encounters])
        yield from _unique("scene", [(("scenes", i, "id"), s.id) for i, s in enumerate(self.scenes)])
        yield from _unique("enemy", [(("enemies", i, "id"), e.id) for i, e in enumerate(self.enemies)])
        yield from _unique("situation table", [(("situation_tables", i, "id"), t.id)
                                               for i, t in enumerate(self.situation_tables)])
        yield from _unique("pregenerated character", [(("pregens", i, "name"), p.name)
                                                      for i, p in enumerate(self.pregens)])
        tables = {t.id for t in self.situation_tables}
        enemies = {e.id for e in self.enemies}
        known = set(self.encounters)
        for i, montage in enumerate(self.montages):
            yield from _known(("montages", i, "table"), montage.table, tables,
                              f"montage {montage.id}: situation table")
        for i, fight in enumerate(self.fights):
            for j, enemy in enumerate(fight.enemies):
                yield from _known(("fights", i, "enemies", j), enemy, enemies, f"fight {fight.id}: enemy")
        for i, scene in enumerate(self.scenes):
            if scene.encounter is not None:
                yield from _known(("scenes", i, "encounter"), scene.encounter, known, f"scene {scene.id}: encounter")
        for i, line in enumerate(self.ending):
            if line.encounter is not None:
                yield from _known(("ending", i, "encounter"), line.encounter, known, "ending: encounter")
        for i, pregen in enumerate(self.pregens):
            yield from _known(("pregens", i, "cult"), pregen.cult, set(self.cults), f"{pregen.name}: cult")
        for i, line in enumerate(self.ending):
            spec = self.encounters.get(line.encounter or "")
            if spec is not None:
                yield from _possible(("ending", i, "outcomes"), spec, line.outcomes, "ending")
        yield from self._branch_faults()

    def exits_from(self, scene: SceneSpec) -> list[ExitSpec]:
        """The ways on from ``scene``: its own, or else the next scene in the list (after the last, the end)."""
        if scene.exits:
            return list(scene.exits)
        at = next(i for i, s in enumerate(self.scenes) if s.id == scene.id)
        return [ExitSpec(to=self.scenes[at + 1].id if at + 1 < len(self.scenes) else END)]

    def scene(self, ident: str) -> SceneSpec | None:
        return next((s for s in self.scenes if s.id == ident), None)

    def _before(self) -> dict[str, set[str]]:
        """For each scene, the scenes some way from the first passes through to reach it (itself included)."""
        ways = {s.id: {e.to for e in self.exits_from(s)} for s in self.scenes}
        before: dict[str, set[str]] = {s.id: {s.id} for s in self.scenes}
        changed = True
        while changed:  # a fixed point: scenes are few
            changed = False
            for scene, onward in ways.items():
                for nxt in onward:
                    if nxt in before and not before[scene] <= before[nxt]:
                        before[nxt] |= before[scene]
                        changed = True
        return before

    def _branch_faults(self) -> Iterator[tuple[tuple[str | int, ...], str]]:
        """Exits to nothing, conditions that can never hold, outcomes that lead nowhere, scenes never reached."""
        ids = {s.id for s in self.scenes}
        known = self.encounters
        before = self._before()
        first = self.scenes[0].id
        for i, scene in enumerate(self.scenes):
            met = {s.encounter for s in self.scenes if s.id in before[scene.id] and s.encounter}
            for j, way in enumerate(scene.exits):
                where = ("scenes", i, "exits", j)
                if way.to != END and way.to not in ids:
                    yield (*where, "to"), (f"scene {scene.id}: exit to {way.to!r}, which is neither a scene "
                                           f"nor {END} ({', '.join(sorted(ids))})")
                if way.encounter is None:
                    if way.outcomes:
                        yield (*where, "outcomes"), f"scene {scene.id}: exit to {way.to}: outcomes of no encounter"
                    continue
                spec = known.get(way.encounter)
                if spec is None:
                    yield from _known((*where, "encounter"), way.encounter, set(known),
                                      f"scene {scene.id}: exit to {way.to}: encounter")
                    continue
                if not way.outcomes:
                    yield (*where, "outcomes"), (f"scene {scene.id}: exit to {way.to} names {way.encounter} "
                                                 "but no outcome of it, so it can never open")
                yield from _possible((*where, "outcomes"), spec, way.outcomes, f"scene {scene.id}: exit to {way.to}")
                if way.encounter not in met:
                    yield (*where, "encounter"), (f"scene {scene.id}: exit to {way.to} can never open: "
                                                  f"{way.encounter} is met on no way to this scene")
            spec = known.get(scene.encounter or "")
            if spec is not None and scene.exits:
                for outcome in outcomes_of(spec):
                    if not any(w.encounter is None or w.encounter != scene.encounter or outcome in w.outcomes
                               for w in scene.exits):
                        yield ("scenes", i, "exits"), (f"scene {scene.id}: if {scene.encounter} comes out "
                                                       f"{outcome}, no exit opens: that outcome leads nowhere")
            if scene.id != first and first not in before[scene.id]:
                yield ("scenes", i, "id"), f"scene {scene.id} cannot be reached from the first scene, {first}"

    @property
    def encounters(self) -> dict[str, ExtendedSpec | MontageSpec | FightSpec]:
        found: dict[str, ExtendedSpec | MontageSpec | FightSpec] = {e.id: e for e in self.extended}
        found.update({m.id: m for m in self.montages})
        found.update({f.id: f for f in self.fights})
        return found

    def enemy(self, ident: str) -> EnemySpec:
        return next(e for e in self.enemies if e.id == ident)

    def table(self, ident: str) -> SituationTable:
        return next(t for t in self.situation_tables if t.id == ident)


def _possible(path: Steps, spec: ExtendedSpec | MontageSpec | FightSpec, outcomes: Sequence[EncounterOutcome],
              what: str) -> Iterator[tuple[Steps, str]]:
    can = outcomes_of(spec)
    for k, outcome in enumerate(outcomes):
        if outcome not in can:
            kind = "a fight" if isinstance(spec, FightSpec) else "an extended challenge"
            yield (*path, k), (f"{what}: {spec.id} is {kind}, which never comes out {outcome} "
                               f"({', '.join(can)}): the branch can never hold")


def _unique(what: str, ids: Sequence[tuple[Steps, str]]) -> Iterator[tuple[Steps, str]]:
    seen: set[str] = set()
    for path, ident in ids:
        if ident in seen:
            yield path, f"more than one {what} has the id {ident!r}"
        seen.add(ident)


def _known(path: Steps, ident: str, known: set[str], what: str) -> Iterator[tuple[Steps, str]]:
    if ident not in known:
        yield path, f"{what} {ident!r} is not in the scenario ({', '.join(sorted(known)) or 'none'})"
