"""What a simulation found, with an interval on every estimate: :class:`Report`.

Chances are :class:`~wyrd.sim.stats.Proportion` (Wilson score interval), averages are
:class:`~wyrd.sim.stats.Mean` (t interval), all at :data:`~wyrd.sim.stats.CONFIDENCE`.
Where a chance has a closed form it is given exactly too: a challenge whose every
attempt had the same exact chance (value, points, bonus and Wyrd budget alike)
has ``exact`` set to that fraction, from :func:`wyrd.rules.odds.challenge_odds`. Every
challenge also reports ``roll``, the mean of the exact chances of its attempts:
an estimate of the chance of overcoming it once attempted, with less spread than
counting successes.

Denominators: a scene's figures count the runs that reached it; a challenge's,
the times it was placed; finale figures, the runs that reached the finale
(``stuck`` runs, where the rules refused something the game could not go on
without, did not).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from wyrd.rules.abacus import FREED, HELD
from wyrd.sim.abacus.engine import Kit
from wyrd.sim.abacus.tally import Key, Tally
from wyrd.sim.stats import CONFIDENCE, JsonReport, Mean, Proportion, mean_interval, wilson

__all__ = [
    "ChallengeReport",
    "CharacterReport",
    "ClockReport",
    "CounterReport",
    "CurvePoint",
    "FinaleReport",
    "Report",
    "SceneReport",
    "build",
]

STATUSES = ("overcome", "failed", "bypassed", "open")
COUNT = (0.0, math.inf)  # counts, points and Wyrd are never negative


@dataclass(frozen=True)
class ChallengeReport:
    id: str
    name: str
    type: str
    value: int
    placed: int
    attempted: Proportion
    overcome: Proportion
    failed: Proportion
    bypassed: Proportion
    untackled: Proportion
    roll: Mean  # the exact chance of each attempt, averaged
    exact: Fraction | None  # the same exact chance for every attempt: the closed form


@dataclass(frozen=True)
class SceneReport:
    id: str
    title: str
    finale: bool
    reached: Proportion
    cleared: Proportion  # every challenge overcome or bypassed
    points: Mean  # ability points spent in the scene
    wyrd: Mean  # Wyrd drawn in the scene
    defeat: Proportion  # somebody defeated in the scene
    defeated: dict[str, Proportion]
    challenges: tuple[ChallengeReport, ...]


@dataclass(frozen=True)
class CharacterReport:
    name: str
    defeated: Proportion
    held: Proportion
    freed: Proportion
    points: Mean  # ability points spent over the story
    wyrd: Mean  # personal Wyrd at the end


@dataclass(frozen=True)
class ClockReport:
    id: str
    name: str
    final: Mean
    distribution: dict[int, int]
    thresholds: dict[int, Proportion]


@dataclass(frozen=True)
class CounterReport:
    id: str
    name: str
    final: Mean
    distribution: dict[int, int]


@dataclass(frozen=True)
class FinaleReport:
    finished: Proportion
    endings: dict[str, Proportion]  # the last scene played
    all_freed: Proportion
    any_held: Proportion
    any_defeated: Proportion
    all_defeated: Proportion


@dataclass(frozen=True)
class CurvePoint:
    """The chance of having been defeated by the end of the ``step``-th scene played."""

    step: int
    anyone: Proportion
    characters: dict[str, Proportion]


@dataclass(frozen=True)
class Report(JsonReport):
    story: str
    title: str
    runs: int
    seed: int
    policy: str
    players: tuple[str, ...]
    confidence: float
    scenes_played: Mean
    points: Mean  # per run
    wyrd: Mean  # per run
    dice: Mean  # dice rolled per run
    scenes: tuple[SceneReport, ...]
    characters: tuple[CharacterReport, ...]
    clocks: tuple[ClockReport, ...]
    counters: tuple[CounterReport, ...]
    finale: FinaleReport
    curve: tuple[CurvePoint, ...]
    safe_reruns: int
    rules_core_runs: int  # runs the plain-data path left to the rules core
    stuck: Proportion
    stuck_reasons: dict[str, int]




def build(tally: Tally, kit: Kit, *, seed: int, policy: str) -> Report:
    """The report of the runs in ``tally``, played on ``kit`` by ``policy`` from ``seed``."""
    runs = tally.runs
    count = tally.count
    finished = count["finished",]

    def mean(key: Key) -> Mean:
        return mean_interval(*tally.sum(key), bounds=COUNT)

    characters = tuple(
        CharacterReport(
            name=name,
            defeated=wilson(sum(n for k, n in count.items() if k[:2] == ("defeat_step", name)), runs),
            held=wilson(count["finale", name, HELD], finished),
            freed=wilson(count["finale", name, FREED], finished),
            points=mean(("char_points", name)),
            wyrd=mean(("char_wyrd", name)),
        )
        for name in kit.players
    )
    story = kit.story
    return Report(
        story=story.id, title=story.title, runs=runs, seed=seed, policy=policy, players=kit.players,
        confidence=CONFIDENCE, scenes_played=mean(("steps",)), points=mean(("run_points",)),
        wyrd=mean(("run_wyrd",)), dice=mean(("dice",)), scenes=_scenes(tally, kit), characters=characters,
        clocks=tuple(
            ClockReport(c.id, c.name, mean(("clock", c.id)), _distribution(tally, "clock_at", c.id),
                        {t.at: wilson(count["reached", c.id, t.at], runs) for t in c.thresholds})
            for c in story.clocks
        ),
        counters=tuple(
            CounterReport(c.id, c.name, mean(("counter", c.id)), _distribution(tally, "counter_at", c.id))
            for c in story.counters
        ),
        finale=FinaleReport(
            finished=wilson(finished, runs),
            endings={s.id: wilson(count["ending", s.id], finished) for s in story.scenes if count["ending", s.id]},
            **{label: wilson(count["party", label], finished)
               for label in ("all_freed", "any_held", "any_defeated", "all_defeated")},
        ),
        curve=_curve(tally, kit),
        safe_reruns=count["safe_rerun",],
        rules_core_runs=count["rules_core",],
        stuck=wilson(count["stuck",], runs),
        stuck_reasons=dict(sorted(tally.reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
    )


def _distribution(tally: Tally, kind: str, ident: str) -> dict[int, int]:
    found = {int(k[2]): n for k, n in tally.count.items() if k[:2] == (kind, ident) and n}
    return dict(sorted(found.items()))


def _scenes(tally: Tally, kit: Kit) -> tuple[SceneReport, ...]:
    count = tally.count
    out = []
    for spec in kit.story.scenes:
        visits = count["visit", spec.id]
        listed = [c.id for c in kit.scenes[spec.id].challenges]
        placed = {str(k[2]) for k in tally.meta if k[1] == spec.id}
        order = [c for c in listed if c in placed] + sorted(placed - set(listed))
        out.append(SceneReport(
            id=spec.id, title=spec.title, finale=spec.finale, reached=wilson(visits, tally.runs),
            cleared=wilson(count["cleared", spec.id], visits),
            points=mean_interval(*tally.sum(("points", spec.id)), bounds=COUNT),
            wyrd=mean_interval(*tally.sum(("wyrd", spec.id)), bounds=COUNT),
            defeat=wilson(count["scene_defeat", spec.id], visits),
            defeated={n: wilson(count["scene_defeated", spec.id, n], visits) for n in kit.players},
            challenges=tuple(_challenge(tally, spec.id, ident) for ident in order),
        ))
    return tuple(out)


def _challenge(tally: Tally, scene: str, ident: str) -> ChallengeReport:
    key = ("challenge", scene, ident)
    meta = tally.meta[key]
    count = tally.count
    placed = count[(*key, "placed")]
    shares = {status: wilson(count[(*key, status)], placed) for status in STATUSES}
    sixths = ("sixths", scene, ident)
    same = sixths in tally.low and tally.low[sixths] == tally.high[sixths]
    return ChallengeReport(
        id=ident, name=meta.name, type=meta.type, value=meta.value, placed=placed,
        attempted=wilson(count[(*key, "attempted")], placed), overcome=shares["overcome"], failed=shares["failed"],
        bypassed=shares["bypassed"], untackled=shares["open"],
        roll=mean_interval(*tally.sum(sixths), scale=6, bounds=(0.0, 1.0)),
        exact=Fraction(tally.low[sixths], 6) if same else None,
    )


def _curve(tally: Tally, kit: Kit) -> tuple[CurvePoint, ...]:
    count = tally.count
    most = tally.high.get(("steps",), 0)  # the most scenes any run played
    points = []
    reached = dict.fromkeys(kit.players, 0)
    anyone = 0
    for step in range(1, most + 1):
        for name in kit.players:
            reached[name] += count["defeat_step", name, step]
        anyone += count["any_defeat_step", step]
        points.append(CurvePoint(step, wilson(anyone, tally.runs),
                                 {n: wilson(reached[n], tally.runs) for n in kit.players}))
    return tuple(points)
