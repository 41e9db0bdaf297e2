"""Which of a Wyrd Abacus command's events are worth a line of prose, grouped into moments.

:func:`moments` reads one command's events (typed, as the rules, the kit and the
oracle made them) and returns a :class:`~wyrd.oracle.narrators.base.NarrationRequest` per
moment, in the order the events happened. Events that belong together are folded
into one moment: a resolved challenge takes its roll, the Wyrd drawn to overcome
it, the points spent on it and the damage and scratches its failure caused; a
defeat takes its Wyrd roll; the story's end takes the final Wyrd rolls and gives
a finale plus one postscript per character; magic takes its costs; a contest
takes its influence rolls; a rest takes its roll.

By default only the major moments come back (:data:`~wyrd.oracle.narrators.base.MAJOR_MOMENTS`:
one line per resolved challenge, scene start and end, twist, defeat, answer, the
story's end ...); ``detail=True`` adds the small ones (an attempt opened, points
spent, a Wyrd roll, a stage rule put in play), so every event kind can be told.

Why a Wyrd draw or a Wyrd roll happened is read through the rules' own enums
(:class:`~wyrd.rules.abacus.reasons.DrawReason`, :class:`~wyrd.rules.abacus.reasons.RollReason`,
re-exported here), so nothing here matches English by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wyrd.oracle.events import field
from wyrd.oracle.facts import ChallengeFacts, CharacterFacts, StoryFacts
from wyrd.oracle.narrators.base import MAJOR_MOMENTS, MomentKind, NarrationRequest, Outcome
from wyrd.rules.abacus.enums import ChallengeType
from wyrd.rules.abacus.reasons import DrawReason, RollReason
from wyrd.rules.actions import Event

__all__ = ["DrawReason", "RollReason", "has_major_moment", "moments"]


_PASS_OVER = frozenset({"counter_changed", "clock_advanced", "challenge_modified", "stage_rule_added",
                        "points_recovered"})
_SIMPLE: dict[str, MomentKind] = {
    "session_started": MomentKind.PROLOGUE,
    "challenge_modified": MomentKind.COMPLICATION,
    "roll_opened": MomentKind.ATTEMPT,
    "wyrd_drawn": MomentKind.WYRD_DRAWN,
    "challenge_rolled": MomentKind.FALTER,
    "contest_decided": MomentKind.CONTEST,
    "counter_changed": MomentKind.COUNTER,
    "counter_fired": MomentKind.COUNTER_FIRED,
    "stage_rule_added": MomentKind.STAGE_RULE,
    "stage_rule_fired": MomentKind.STAGE_RULE_FIRED,
    "servant_loose": MomentKind.SERVANT_LOOSE,
    "scene_ended": MomentKind.SCENE_CLOSING,
}
_SUBJECT_KEYS = ("character", "lead", "asker", "winner", "subject")


def _learn(events: Sequence[Event], facts: StoryFacts) -> tuple[dict[str, ChallengeFacts], dict[str, CharacterFacts]]:
    challenges = dict(facts.challenges)
    characters = dict(facts.characters)
    for e in events:
        kind = e.kind
        if kind == "challenge_placed":
            known = challenges.get(field(e, "id"))
            kind_of = ChallengeType(field(e, "type"))
            challenges[field(e, "id")] = ChallengeFacts(
                id=field(e, "id"), name=field(e, "name"), type=kind_of.value, ability=kind_of.ability.value,
                value=field(e, "value"),
                denizen=field(e, "denizen") or (known.denizen if known else None))
        elif kind in ("roll_opened", "challenge_rolled") and field(e, "challenge") in challenges:
            update: dict[str, Any] = {"lead": field(e, "lead")}
            if field(e, "involved"):
                update["involved"] = list(field(e, "involved"))
            challenges[field(e, "challenge")] = challenges[field(e, "challenge")].model_copy(update=update)
        elif kind == "character_created" and field(e, "name") not in characters:
            characters[field(e, "name")] = CharacterFacts(name=field(e, "name"), concept=field(e, "concept", ""),
                                                   connection=field(e, "connection"), wyrd=field(e, "wyrd", 0))
    return challenges, characters


def _resolution_folds(events: Sequence[Event], i: int, taken: set[int]) -> list[int]:
    cid = field(events[i], "challenge")
    got: list[int] = []
    for j in range(i - 1, -1, -1):
        e = events[j]
        kind = e.kind
        if kind == "challenge_resolved":
            break
        if j in taken:
            continue
        if (kind in ("challenge_rolled", "roll_opened") and field(e, "challenge") == cid) or (
                kind == "points_spent" and field(e, "challenge") == cid) or (
                kind == "wyrd_drawn" and DrawReason.of(field(e, "reason")) == DrawReason.OVERCOME):
            got.append(j)
    for j in range(i + 1, len(events)):
        kind = events[j].kind
        if kind in ("damage", "ability_scratched"):
            got.append(j)
        elif kind not in _PASS_OVER:
            break
    return got


def _rolled(reason: RollReason, character: object = None) -> Callable[[Event], bool]:
    def match(x: Event) -> bool:
        return (x.kind == "influence_rolled" and field(x, "reason") == reason
                and (character is None or field(x, "character") == character))
    return match


def _magic_costs(e: Event) -> Callable[[Event], bool]:
    casters = set(field(e, "casters", []))

    def match(x: Event) -> bool:
        kind, reason = x.kind, DrawReason.of(field(x, "reason"))
        if kind == "stage_rule_added":
            return bool(field(x, "rule") == field(e, "rule"))
        cost = (kind == "points_spent" and field(x, "challenge") is None) or (
            kind == "wyrd_drawn" and reason in (DrawReason.WORK, DrawReason.BIND))
        return cost and field(x, "character") in casters
    return match


def _backward(e: Event) -> tuple[Callable[[Event], bool], bool] | None:
    """What an anchor event folds from before it, and whether other events stop the search."""
    kind = e.kind
    if kind == "character_defeated":
        return _rolled(RollReason.DEFEAT, field(e, "character")), True
    if kind == "story_ended":
        return _rolled(RollReason.FINALE), True
    if kind == "scene_test":
        return _rolled(RollReason.SCENE_TEST), False
    if kind == "points_recovered" and field(e, "reason") == RollReason.REST:
        return _rolled(RollReason.REST, field(e, "character")), True
    if kind == "contest_decided":
        trait = field(e, "trait")
        return (lambda x: x.kind == "influence_rolled" and field(x, "trait") == trait), True
    if kind == "scene_ended":
        return (lambda x: x.kind == "points_recovered" and field(x, "reason") != RollReason.REST), False
    if kind == "magic_cast":
        return _magic_costs(e), True
    if kind == "ability_scratched":
        who, ability = field(e, "character"), field(e, "ability")
        return (lambda x: x.kind == "damage" and field(x, "character") == who
                and field(x, "ability") == ability), True
    return None


def _folds(events: Sequence[Event]) -> dict[int, list[int]]:
    """For each event that anchors a moment, the indices of the events folded into it."""
    folds: dict[int, list[int]] = {}
    taken: set[int] = set()
    for i, e in enumerate(events):
        if i in taken:
            continue
        got: list[int] = []
        rule = _backward(e)
        if e.kind == "challenge_resolved" and field(e, "status") != "bypassed":
            got = _resolution_folds(events, i, taken)
        elif rule is not None:
            match, stop = rule
            for j in range(i - 1, -1, -1):
                if j in taken:
                    continue
                if match(events[j]):
                    got.append(j)
                elif stop:
                    break
        elif e.kind == "influence_rolled" and field(e, "trait") == "wyrd":
            for j in range(i + 1, len(events)):
                x = events[j]
                if x.kind != "influence_rolled" or field(x, "trait") != "wyrd" or field(x, "reason") != field(
                        e, "reason"):
                    break
                got.append(j)
        if got:
            folds[i] = sorted(got)
            taken.update(got)
    return folds


def _outcome(event: Event, related: Sequence[Event]) -> Outcome:
    if field(event, "status") == "bypassed":
        return Outcome.BYPASSED
    if field(event, "overcome"):
        return Outcome.OVERCOME_WYRD if field(event, "boost") else Outcome.OVERCOME
    if any(r.kind == "ability_scratched" for r in related):
        return Outcome.FAILED_SCRATCH
    if any(r.kind == "damage" for r in related):
        return Outcome.FAILED_DAMAGE
    return Outcome.FAILED


def _challenge(event: Event, related: Sequence[Event], known: Mapping[str, ChallengeFacts]) -> ChallengeFacts:
    cid = str(field(event, "challenge"))
    base = known.get(cid) or ChallengeFacts(id=cid, name=cid.replace("-", " "))
    update: dict[str, Any] = {"outcome": _outcome(event, related).value, "wyrd_drawn": int(field(event, "boost", 0))}
    damage: dict[str, int] = {}
    scratched: dict[str, str] = {}
    for r in related:
        if r.kind == "challenge_rolled":
            update["lead"] = field(r, "lead")
        elif r.kind == "damage":
            damage[field(r, "character")] = damage.get(field(r, "character"), 0) + int(field(r, "n"))
        elif r.kind == "ability_scratched":
            scratched[field(r, "character")] = str(field(r, "ability"))
    update.update(damage=damage, scratched=scratched)
    return base.model_copy(update=update)


def _detail(kind: str, event: Event, related: Sequence[Event]) -> str | None:
    if kind == "magic_cast":
        return str(field(event, "form"))
    if kind == "twist":
        return str(field(event, "category"))
    if kind == "answer":
        return str(field(event, "answer"))
    if kind == "scene_test":
        return str(field(event, "outcome"))
    if kind == "character_defeated":
        return "impediment" if field(event, "impediment") else "defeated"
    if kind == "challenge_modified":
        return "harder" if int(field(event, "change", 0)) > 0 else "easier"
    if kind == "clock_advanced":
        return "threshold" if field(event, "thresholds") else "advanced"
    if kind in ("damage", "ability_scratched"):
        return "scratch" if kind == "ability_scratched" else "damage"
    return None


def _kind_of(event: Event) -> MomentKind | None:
    kind = str(event.kind)
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    wyrd = field(event, "trait") == "wyrd"
    table: dict[str, MomentKind] = {
        "character_created": MomentKind.INTRODUCTION, "scene_started": MomentKind.SCENE_OPENING,
        "scene_test": MomentKind.SCENE_TEST, "challenge_placed": MomentKind.CHALLENGE_PLACED,
        "points_spent": MomentKind.EFFORT, "challenge_resolved": MomentKind.CHALLENGE_OUTCOME,
        "damage": MomentKind.HARM, "ability_scratched": MomentKind.HARM, "character_defeated": MomentKind.DEFEAT,
        "influence_rolled": MomentKind.WYRD_ROLL if wyrd else MomentKind.INFLUENCE,
        "points_recovered": MomentKind.REST if field(event, "reason") == RollReason.REST else MomentKind.RECOVERY,
        "recovery_refused": MomentKind.RECOVERY,
        "clock_advanced": MomentKind.CLOCK, "magic_cast": MomentKind.MAGIC, "twist": MomentKind.TWIST,
        "answer": MomentKind.ANSWER, "story_ended": MomentKind.FINALE,
    }
    return table.get(kind)


def has_major_moment(events: Sequence[Event]) -> bool:
    """Whether any of ``events`` is a major moment: without one, :func:`moments` finds none to tell."""
    return any(_kind_of(event) in MAJOR_MOMENTS for event in events)


def moments(events: Sequence[Event], facts: StoryFacts | None = None, *,
            detail: bool = False) -> list[NarrationRequest]:
    """The moments worth narrating in one command's events, in order (see the module docstring)."""
    facts = facts or StoryFacts()
    evs: list[Event] = list(events)
    challenges, characters = _learn(evs, facts)
    folds = _folds(evs)
    folded = {j for js in folds.values() for j in js}
    # Made at the first moment to tell: a game's setup (a story chosen, its stage rules) has
    # only minor ones, and the request's validator is then not built before the first prompt.
    base: NarrationRequest | None = None
    out: list[NarrationRequest] = []
    for i, event in enumerate(evs):
        moment = None if i in folded else _kind_of(event)
        if moment is None or not (detail or moment in MAJOR_MOMENTS):
            continue  # a minor moment is left out (and leaves the others as they are)
        if base is None:
            base = NarrationRequest(moment=MomentKind.PROLOGUE, characters=list(characters.values()),
                                    story=facts.story, scene=facts.scene, location=facts.location,
                                    seeds=list(facts.seeds), tone=list(facts.tone), language=facts.language,
                                    denizens=list(facts.denizens), tables=dict(facts.tables),
                                    referents=dict(facts.referents))
        related = [evs[j] for j in folds.get(i, [])]
        kind = str(event.kind)
        subject = next((str(field(event, k)) for k in _SUBJECT_KEYS if field(event, k)), None)
        challenge = None
        if kind == "challenge_resolved":
            challenge = _challenge(event, related, challenges)
            subject = challenge.lead or subject
            detail_word: str | None = challenge.outcome
        else:
            detail_word = _detail(kind, event, related)
            cid = field(event, "challenge") or (field(event, "id") if kind == "challenge_placed" else None)
            if isinstance(cid, str) and cid in challenges:
                challenge = challenges[cid]
                subject = subject or challenge.lead
        if kind == "character_created":
            subject = str(field(event, "name"))
        if kind in ("magic_cast", "scene_test"):
            subject = next(iter(field(event, "casters") or field(event, "interrupted_by") or []), None)
        if kind == "scene_started" and not base.scene:
            base = base.model_copy(update={"scene": str(field(event, "scene", base.scene))})
        told = [evs[j] for j in sorted([*folds.get(i, []), i])]
        out.append(base.model_copy(update={"moment": moment, "detail": detail_word, "events": told,
                                           "subject": subject, "challenge": challenge}))
        if kind == "story_ended":
            for name, result in dict(field(event, "results", {})).items():
                out.append(base.model_copy(update={"moment": MomentKind.POSTSCRIPT, "detail": str(result),
                                                   "events": [event], "subject": str(name)}))
    return [r for r in out if detail or r.major]
