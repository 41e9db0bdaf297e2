"""Checking a Wyrd Abacus story beyond its shape: references, flow, tables, pregens, challenge values.

The loader makes sure a story file has the right fields of the right types; this
module finds what would go wrong in play: ids that name nothing or are used twice,
scenes nobody can reach or leave, missing twist tables, pregens the creation rules
refuse, challenges no party could ever overcome, and failures whose only
consequence is damage (seed 000 advises against that). ``wyrd check PATH`` runs
:func:`check_file` on an Abacus file. Errors mean the story cannot be played as written; warnings are
probably mistakes.
"""

from __future__ import annotations

import string
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from wyrd.rules.abacus.enums import Ability
from wyrd.rules.abacus.errors import CreationError
from wyrd.rules.abacus.stage import Effect, EffectKind, Match, StageRule, TriggerKind
from wyrd.stories.abacus.exits import Condition, WhenClock, WhenCounter, WhenFailed, WhenOvercome
from wyrd.stories.abacus.flow import character
from wyrd.stories.abacus.loader import load_story
from wyrd.stories.abacus.schema import (
    SIX_CATEGORIES,
    ChallengeEntry,
    Entry,
    RuleEntry,
    Story,
    StoryChallenge,
    TwistCategory,
)
from wyrd.stories.problems import Problem, Severity, StoryError, errors, format_path
from wyrd.stories.wording import FORMS

__all__ = ["PLACEHOLDERS", "check_file", "errors", "lint"]

Steps = tuple[str | int, ...]
_Need = Callable[[Steps, str | None, set[str], str], None]
ERROR, WARNING = Severity.ERROR, Severity.WARNING
# The fields a twist or postscript text may use: the character it concerns.
PLACEHOLDERS = frozenset({"name"})
_REQUIRED_TWISTS = (*SIX_CATEGORIES, TwistCategory.INTRUSION)


class _Report:
    def __init__(self, story: Story) -> None:
        self.origin = story.origin
        self.problems: list[Problem] = []

    def __call__(self, path: Steps, message: str, severity: Severity = ERROR) -> None:
        file = self.origin.file if self.origin else None
        line, column = (self.origin.locate(path) if self.origin else None) or (None, None)
        self.problems.append(Problem(file, line, column, format_path(path), message, severity))


# -- where everything is -------------------------------------------------------------


def _holders(story: Story) -> Iterator[tuple[Steps, list[ChallengeEntry], list[RuleEntry]]]:
    """Scenes and complications: what they place and which rules they bring."""
    for i, scene in enumerate(story.scenes):
        yield ("scenes", i), scene.challenges, scene.stage_rules
    for i, item in enumerate(story.complications):
        yield ("complications", i), item.challenges, item.stage_rules


def _challenges(story: Story) -> Iterator[tuple[Steps, StoryChallenge, str | None]]:
    """Every challenge written out, with its path and the denizen it sits under."""
    for i, denizen in enumerate(story.denizens):
        for j, spec in enumerate(denizen.challenges):
            yield ("denizens", i, "challenges", j), spec, denizen.id
    for at, entries, _ in _holders(story):
        for j, entry in enumerate(entries):
            if not isinstance(entry, str):
                yield (*at, "challenges", j), entry, None


def _rules(story: Story) -> Iterator[tuple[Steps, StageRule]]:
    for i, rule in enumerate(story.stage_rules):
        yield ("stage_rules", i), rule
    for at, _, entries in _holders(story):
        for j, entry in enumerate(entries):
            if not isinstance(entry, str):
                yield (*at, "stage_rules", j), entry


def _effects(story: Story) -> Iterator[tuple[Steps, Effect]]:
    for path, rule in _rules(story):
        for k, effect in enumerate(rule.effects):
            yield (*path, "effects", k), effect
    for i, clock in enumerate(story.clocks):
        for j, threshold in enumerate(clock.thresholds):
            for k, effect in enumerate(threshold.effects):
                yield ("clocks", i, "thresholds", j, "effects", k), effect
    for path, spec, _ in _challenges(story):
        for k, effect in enumerate(spec.on_fail or []):
            yield (*path, "on_fail", k), effect


class _Known:
    """The ids of each kind of element."""

    def __init__(self, story: Story) -> None:
        self.scenes = {s.id for s in story.scenes}
        self.locations = {loc.id for loc in story.locations}
        self.denizens = {d.id for d in story.denizens}
        self.challenges = {spec.id for _, spec, _ in _challenges(story)}
        self.rules = {r.id for r in story.stage_rules}
        self.clocks = {c.id for c in story.clocks}
        self.counters = {c.id for c in story.counters}
        self.pregens = {p.id for p in story.pregens}


# -- the checks ----------------------------------------------------------------------


def _duplicates(story: Story, report: _Report) -> None:
    """Ids are unique within their kind (challenges and rules across the whole story)."""
    twists = [((("twists", c.value, i)), e) for c in TwistCategory for i, e in enumerate(story.twists.table(c))]
    endings = [(("postscripts", k, i), e) for k in ("held", "freed", "defeated")
               for i, e in enumerate(getattr(story.postscripts, k))]
    kinds: dict[str, list[tuple[Steps, str]]] = {
        "scene": [(("scenes", i), s.id) for i, s in enumerate(story.scenes)],
        "location": [(("locations", i), x.id) for i, x in enumerate(story.locations)],
        "denizen": [(("denizens", i), x.id) for i, x in enumerate(story.denizens)],
        "pregen": [(("pregens", i), x.id) for i, x in enumerate(story.pregens)],
        "pregen name": [(("pregens", i, "name"), x.name.casefold()) for i, x in enumerate(story.pregens)],
        "concept": [(("concepts", i), x.id) for i, x in enumerate(story.concepts)],
        "clock": [(("clocks", i), x.id) for i, x in enumerate(story.clocks)],
        "counter": [(("counters", i), x.id) for i, x in enumerate(story.counters)],
        "complication": [(("complications", i), x.id) for i, x in enumerate(story.complications)],
        "challenge": [(path, spec.id) for path, spec, _ in _challenges(story)],
        "stage rule": [(path, rule.id) for path, rule in _rules(story)],
        "twist": [(path, e.id) for path, e in twists],
        "postscript": [(path, e.id) for path, e in endings],
    }
    for kind, items in kinds.items():
        first: dict[str, Steps] = {}
        for path, ident in items:
            if ident in first:
                report(path, f"{kind} {ident!r} is already used at {format_path(first[ident])}")
            else:
                first[ident] = path


def _references(story: Story, report: _Report) -> None:
    """Every id a story names must name something of the right kind."""
    known = _Known(story)

    def need(path: Steps, ident: str | None, pool: set[str], kind: str) -> None:
        if ident is not None and ident not in pool:
            report(path, f"names no known {kind} {ident!r}")

    for i, scene in enumerate(story.scenes):
        need(("scenes", i, "location"), scene.location, known.locations, "location")
        for j, way in enumerate(scene.next):
            need(("scenes", i, "next", j, "scene"), way.scene, known.scenes, "scene")
    for where, when, _ in _conditions(story):
        if isinstance(when, WhenOvercome | WhenFailed):
            target = when.overcome if isinstance(when, WhenOvercome) else when.failed
            need(where, target, known.challenges, "challenge")
        elif isinstance(when, WhenClock):
            need(where, when.clock_at_least.clock, known.clocks, "clock")
        elif isinstance(when, WhenCounter):
            need(where, when.counter_at_least.counter, known.counters, "counter")
    for at, entries, rules in _holders(story):
        for j, entry in enumerate(entries):
            if isinstance(entry, str):
                need((*at, "challenges", j), entry, known.challenges, "challenge")
        for j, ref in enumerate(rules):
            if isinstance(ref, str):
                need((*at, "stage_rules", j), ref, known.rules, "stage rule")
    for path, spec, owner in _challenges(story):
        for k, prior in enumerate(spec.after):
            need((*path, "after", k), prior, known.challenges, "challenge")
            if prior == spec.id:
                report((*path, "after", k), f"{spec.id} cannot follow itself")
        if owner is not None and spec.denizen not in (None, owner):
            report((*path, "denizen"), f"sits under denizen {owner!r} but names {spec.denizen!r}")
        elif owner is None:
            need((*path, "denizen"), spec.denizen, known.denizens, "denizen")
    for path, rule in _rules(story):
        _match(rule.trigger.match, (*path, "trigger", "match"), known, need)
        need((*path, "trigger", "at_or_under"), rule.trigger.at_or_under, known.counters, "counter")
    for path, effect in _effects(story):
        _match(effect.match, (*path, "match"), known, need)
        for kind, wanted in ((EffectKind.COUNTER, "counter"), (EffectKind.CLOCK, "clock"),
                             (EffectKind.PLACE, "challenge")):
            if effect.do == kind and getattr(effect, wanted) is None:
                report(path, f"a {kind.value} effect needs {wanted}: ID")
        need((*path, "counter"), effect.counter, known.counters, "counter")
        need((*path, "clock"), effect.clock, known.clocks, "clock")
        need((*path, "challenge"), effect.challenge, known.challenges, "challenge")
    for i, pregen in enumerate(story.pregens):
        if pregen.connection is not None:
            need(("pregens", i, "connection", "to"), pregen.connection.to, known.pregens, "pregen")


def _match(match: Match, path: Steps, known: _Known, need: _Need) -> None:
    need((*path, "challenge"), match.challenge, known.challenges, "challenge")
    need((*path, "denizen"), match.denizen, known.denizens, "denizen")


def _flow(story: Story, report: _Report) -> None:
    """Fixed scenes: an opening, a finale, a way out of every other scene, all reachable."""
    if story.freeform:
        for kind in ("locations", "denizens", "complications"):
            if not getattr(story, kind):
                report((kind,), f"a freeform setting needs a pool of {kind}")
        return
    if not story.scenes:
        report(("scenes",), "a story needs scenes (or freeform: true and pools)")
        return
    if not any(s.finale for s in story.scenes):
        report(("scenes",), "no scene is marked finale: true, so the story never ends")
    for i, scene in enumerate(story.scenes):
        if not scene.finale and not scene.next:
            report(("scenes", i, "next"), f"scene {scene.id} is not a finale and has no way out")
    links = {s.id: [w.scene for w in s.next] for s in story.scenes}
    seen, queue = {story.scenes[0].id}, deque([story.scenes[0].id])
    while queue:
        for target in links.get(queue.popleft(), []):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    for i, scene in enumerate(story.scenes):
        if scene.id not in seen:
            report(("scenes", i), f"scene {scene.id} cannot be reached from {story.scenes[0].id}", WARNING)
    placed = {e if isinstance(e, str) else e.id for s in story.scenes for e in s.challenges}
    placed |= {e.challenge for _, e in _effects(story) if e.do == EffectKind.PLACE and e.challenge}
    placed |= {e if isinstance(e, str) else e.id for c in story.complications for e in c.challenges}
    specs = {spec.id: spec for _, spec, _ in _challenges(story)}
    for path, spec, _ in _challenges(story):
        if spec.id not in placed:
            report(path, f"challenge {spec.id} is never placed by a scene or a rule", WARNING)
    for i, scene in enumerate(story.scenes):
        here = {e if isinstance(e, str) else e.id for e in scene.challenges}
        for j, entry in enumerate(scene.challenges):
            found = specs.get(entry) if isinstance(entry, str) else entry
            for prior in found.after if found else []:
                if prior not in here:
                    report(("scenes", i, "challenges", j),
                           f"{found.id if found else entry} follows {prior}, which this scene does not place", WARNING)


def _texts(entries: Sequence[Entry], path: Steps, report: _Report) -> None:
    for i, entry in enumerate(entries):
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(entry.text) if f is not None]
        except ValueError:
            report((*path, i, "text"), "unbalanced { or } (write {{ and }} for braces themselves)")
            continue
        for name in fields:
            # {name}, {Name} (capitalised), {name.their} (a form, wyrd.stories.wording.FORMS), {name|fallback}
            base, _, form = name.split("|", 1)[0].partition(".")
            if base[:1].lower() + base[1:] not in PLACEHOLDERS or (form and form not in FORMS):
                report((*path, i, "text"), f"unknown placeholder {{{name}}}; only {{name}} is filled in "
                       f"(also {{Name}}, {{name.their}} and the other forms, {{name|fallback}})")


def _tables(story: Story, report: _Report) -> None:
    """Twist tables for every Wyrd result the rules name; postscripts for every ending."""
    for category in _REQUIRED_TWISTS:
        if not story.twists.table(category):
            report(("twists", category.value), f"the {category.value} twist table is empty")
    weights = story.twists.weights
    if not any(getattr(weights, c.value) for c in SIX_CATEGORIES):
        report(("twists", "weights"), "a Wyrd 6 needs a category with weight above 0")
    if not (weights.intrusion or weights.friendly):
        report(("twists", "weights"), "a Wyrd 1-2 needs intrusion or friendly weighted above 0")
    for category in TwistCategory:
        _texts(story.twists.table(category), ("twists", category.value), report)
    for ending in ("held", "freed", "defeated"):
        entries = getattr(story.postscripts, ending)
        if not entries:
            report(("postscripts", ending), f"no postscript for a character {ending}", WARNING)
        _texts(entries, ("postscripts", ending), report)


def _pregens(story: Story, report: _Report) -> None:
    """Pregens are made by the creation rules; the player range makes sense."""
    if story.players.min > story.players.max:
        report(("players",), f"min {story.players.min} is above max {story.players.max}")
    for i, pregen in enumerate(story.pregens):
        try:
            character(story, pregen.id)
        except CreationError as exc:
            report(("pregens", i), str(exc))


def _values(story: Story, report: _Report) -> None:
    """No challenge beyond the party's points + the die's 6 + the scene pool (all present)."""
    if story.pregens:
        size = len(story.pregens)
        totals = {a: sum(getattr(p, a.value) for p in story.pregens) for a in Ability}
        who = "the pregens"
    else:
        size = story.players.max
        totals = {a: 9 * size for a in Ability}
        who = f"{size} characters at 9"
    for path, spec, _ in _challenges(story):
        ability = spec.type.ability
        bound = totals[ability] + 6 + size + 1
        if spec.value > bound:
            report((*path, "value"), f"{spec.value} is beyond any party: {totals[ability]} {ability.value} points "
                                     f"({who}) + 6 on the die + {size + 1} scene Wyrd = {bound}")


def _consequences(story: Story, report: _Report) -> None:
    """Seed 000: damage should not be the only consequence of failing."""
    fail_rules = [r for _, r in _rules(story) if r.trigger.on == TriggerKind.FAIL]
    for path, spec, owner in _challenges(story):
        denizen = spec.denizen or owner
        effects = list(spec.on_fail) if spec.on_fail is not None else [Effect(do=EffectKind.DAMAGE)]
        for rule in fail_rules:
            m = rule.trigger.match
            if (m.challenge in (None, spec.id) and m.type in (None, spec.type)
                    and m.denizen in (None, denizen)):
                effects += rule.effects
        if effects and all(e.do == EffectKind.DAMAGE for e in effects):
            default = " (the default, with on_fail left out)" if spec.on_fail is None else ""
            report(path, f"failing {spec.id} only costs damage{default}; seed 000 advises another consequence "
                         "with it (a counter, a clock, a Wyrd roll, a mark)", WARNING)


def _conditions(story: Story) -> Iterator[tuple[Steps, Condition, str | None]]:
    """Every condition the story writes, with the scene it is judged after (None: at the finale, any)."""
    for i, scene in enumerate(story.scenes):
        for j, way in enumerate(scene.next):
            yield ("scenes", i, "next", j, "when"), way.when, scene.id
        for field in ("told", "endings"):
            for j, told in enumerate(getattr(scene, field)):
                yield ("scenes", i, field, j, "when"), told.when, scene.id if field == "endings" else None
    for kind in ("held", "freed", "defeated"):
        for j, entry in enumerate(getattr(story.postscripts, kind)):
            yield ("postscripts", kind, j, "when"), entry.when, None


def _ancestors(story: Story, scene: str) -> set[str]:
    """The scenes from which ``scene`` can be reached, and itself."""
    into: dict[str, set[str]] = {}
    for s in story.scenes:
        for way in s.next:
            into.setdefault(way.scene, set()).add(s.id)
    seen, queue = {scene}, deque([scene])
    while queue:
        for before in into.get(queue.popleft(), set()):
            if before not in seen:
                seen.add(before)
                queue.append(before)
    return seen


def _outcomes(story: Story, report: _Report) -> None:
    """Outcomes must lead somewhere: no branch whose condition can never hold, no scene that can stop dead.

    A condition on a challenge holds only if some scene before it (or a rule) places that
    challenge; a counter's only if something raises it that far. A scene that is not a finale
    needs a way on that is always open, or the story stops there when no condition holds (a
    challenge left untackled satisfies neither ``overcome`` nor ``failed``).
    """
    if story.freeform or not story.scenes:
        return
    by_rule = {e.challenge for _, e in _effects(story) if e.do == EffectKind.PLACE and e.challenge}
    raised = {e.counter for _, e in _effects(story) if e.do == EffectKind.COUNTER and (e.n is None or e.n > 0)}
    starts = {c.id: c.value for c in story.counters}

    def placed_by(scenes: set[str]) -> set[str]:
        found = set(by_rule)
        for s in story.scenes:
            if s.id in scenes:
                found |= {e if isinstance(e, str) else e.id for e in s.challenges}
        return found

    every = placed_by({s.id for s in story.scenes})
    for path, when, scene in _conditions(story):
        if isinstance(when, WhenOvercome | WhenFailed):
            target = when.overcome if isinstance(when, WhenOvercome) else when.failed
            placed = placed_by(_ancestors(story, scene)) if scene is not None else every
            if target not in placed:
                where = f"by scene {scene} or any scene before it" if scene is not None else "anywhere"
                report(path, f"can never hold: {target} is not placed {where}")
        elif isinstance(when, WhenCounter):
            tally = when.counter_at_least
            if tally.value > starts.get(tally.counter, 0) and tally.counter not in raised:
                report(path, f"can never hold: nothing raises {tally.counter} to {tally.value}")
    for i, spec in enumerate(story.scenes):
        if spec.finale or not spec.next:
            continue
        if all(way.when != "always" for way in spec.next):
            report(("scenes", i, "next"), f"every way out of {spec.id} has a condition: when none holds "
                                          "(a challenge left untackled, say), the story stops there", WARNING)


_CHECKS = (_duplicates, _references, _flow, _outcomes, _tables, _pregens, _values, _consequences)


def lint(story: Story) -> list[Problem]:
    """Every problem found in ``story``, in file order (positions if the loader read it)."""
    report = _Report(story)
    for check in _CHECKS:
        check(story, report)
    return sorted(report.problems, key=lambda p: (p.line or 0, p.column or 0, p.field))


def check_file(path: str | Path) -> list[Problem]:
    """``wyrd check PATH``: the loader's problems if it does not load, else the linter's."""
    try:
        story = load_story(path)
    except StoryError as exc:
        return list(exc.problems)
    return lint(story)
