"""The question oracle, the scene test and the two-word inspiration.

``ask "QUESTION" [certain|likely|even|unlikely|impossible]`` (DESIGN.md): a d100
against the odds 90 / 70 / 50 / 30 / 10 (default even).

* 1 up to a fifth of the odds: **yes, and...** (an exceptional yes);
* up to the odds: **yes**;
* above 100 minus a fifth of (100 - odds): **no, but...** (an exceptional no);
* otherwise **no**.

Rounding [ours]: both fifths are rounded down, so the exceptional bands never
grow past a fifth. Exactly: yes-and when ``roll <= floor(odds / 5)``; yes when
``roll <= odds``; no-but when ``roll > 100 - floor((100 - odds) / 5)``. The five
named odds are multiples of 10, so their fifths are whole (18/14/10/6/2 faces
each way); the rounding only matters for a number given instead of a word (1-99).

Tension T is the scene Wyrd drawn so far in the scene. A double (11, 22, ... 99;
100 is no double) whose digit is at most T + 1 also brings a twist for the asker
(from the twist tables, as for a Wyrd 6). With T = 0 only 11 does (1 in 100); with
T >= 8 all nine doubles do. :func:`question_odds` gives the exact fractions of each
answer and of a twist, to show before rolling.

The scene test (DESIGN.md) is the scene's first Wyrd roll, for everyone present:
any 6 interrupts the scene with that character's twist; otherwise a best of 1-2
alters it with a mundane intrusion; otherwise it goes as expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from wyrd.oracle.events import AnswerGiven, SceneTested, TwistDrawn
from wyrd.oracle.tables import DeckState, Table, roll
from wyrd.oracle.twists import category_table, draw_twist
from wyrd.rules.dice import Dice

__all__ = [
    "ODDS",
    "Answer",
    "AnswerKind",
    "Inspiration",
    "QuestionOdds",
    "SceneOutcome",
    "SceneTest",
    "answer_for",
    "answer_twist",
    "ask",
    "inspire",
    "is_twist",
    "question_odds",
    "scene_test",
    "scene_test_odds",
]

ODDS: dict[str, int] = {"certain": 90, "likely": 70, "even": 50, "unlikely": 30, "impossible": 10}
FACES = 100


class AnswerKind(StrEnum):
    YES_AND = "yes_and"
    YES = "yes"
    NO = "no"
    NO_BUT = "no_but"

    @property
    def label(self) -> str:
        return {"yes_and": "Yes, and...", "yes": "Yes.", "no": "No.", "no_but": "No, but..."}[self.value]

    @property
    def is_yes(self) -> bool:
        return self in (AnswerKind.YES_AND, AnswerKind.YES)


def _odds(odds: str | int) -> tuple[str, int]:
    if isinstance(odds, int) and not isinstance(odds, bool):
        number = odds
    elif isinstance(odds, str) and odds.strip().lower() in ODDS:
        word = odds.strip().lower()
        return word, ODDS[word]
    elif isinstance(odds, str) and odds.strip().isdigit():
        number = int(odds.strip())
    else:
        raise ValueError(f"{odds!r} is not odds: say {', '.join(ODDS)}, or a chance from 1 to 99")
    if not 1 <= number <= 99:
        raise ValueError(f"a chance of {number} is not from 1 to 99")
    word = next((w for w, n in ODDS.items() if n == number), str(number))
    return word, number


def _tension(tension: int) -> int:
    if tension < 0:
        raise ValueError(f"tension counts Wyrd drawn in the scene; it cannot be {tension}")
    return tension


def answer_for(face: int, odds: int) -> AnswerKind:
    """The answer a d100 face gives at ``odds`` (see the module docstring for the rounding)."""
    if not 1 <= face <= FACES:
        raise ValueError(f"{face} is not a face of a d100")
    if face <= odds // 5:
        return AnswerKind.YES_AND
    if face <= odds:
        return AnswerKind.YES
    if face > FACES - (FACES - odds) // 5:
        return AnswerKind.NO_BUT
    return AnswerKind.NO


def is_twist(face: int, tension: int) -> bool:
    """A double (11 ... 99) whose digit is at most tension + 1."""
    return face < FACES and face % 11 == 0 and face // 11 <= _tension(tension) + 1


class QuestionOdds(BaseModel):
    """The exact chances of each answer and of a twist, before the roll."""

    model_config = ConfigDict(frozen=True)

    word: str
    odds: int
    tension: int
    yes_and_max: int  # faces 1..yes_and_max: yes, and
    yes_max: int  # ..yes_max: yes
    no_but_min: int  # no_but_min..100: no, but
    twist_faces: tuple[int, ...]
    answers: dict[AnswerKind, Fraction]
    twist: Fraction

    @property
    def yes(self) -> Fraction:
        return self.answers[AnswerKind.YES_AND] + self.answers[AnswerKind.YES]

    @property
    def no(self) -> Fraction:
        return self.answers[AnswerKind.NO] + self.answers[AnswerKind.NO_BUT]


def question_odds(odds_word: str | int = "even", tension: int = 0) -> QuestionOdds:
    """Exact odds of the question oracle at ``odds_word`` with tension ``tension``."""
    word, odds = _odds(odds_word)
    tension = _tension(tension)
    counts = dict.fromkeys(AnswerKind, 0)
    for face in range(1, FACES + 1):
        counts[answer_for(face, odds)] += 1
    twists = tuple(f for f in range(1, FACES + 1) if is_twist(f, tension))
    return QuestionOdds(
        word=word, odds=odds, tension=tension, yes_and_max=odds // 5, yes_max=odds,
        no_but_min=FACES - (FACES - odds) // 5 + 1, twist_faces=twists,
        answers={k: Fraction(n, FACES) for k, n in counts.items()}, twist=Fraction(len(twists), FACES),
    )


class Answer(BaseModel):
    """What the oracle said."""

    model_config = ConfigDict(frozen=True)

    question: str
    word: str
    odds: int
    tension: int
    roll: int
    answer: AnswerKind
    twist: bool

    @property
    def label(self) -> str:
        return self.answer.label

    def event(self, asker: str | None = None, chances: dict[str, str] | None = None) -> AnswerGiven:
        """The ``answer`` event the play layer stores (with each answer's ``chances`` as asked)."""
        return AnswerGiven(question=self.question, asker=asker, odds=self.word, chance=self.odds,
                           tension=self.tension, roll=self.roll, answer=self.answer.value, twist=self.twist,
                           chances=chances)


def ask(question: str, odds_word: str | int, tension: int, dice: Dice) -> Answer:
    """Roll the d100 for ``question`` (a fresh :func:`question_odds` shows the chances beforehand)."""
    word, odds = _odds(odds_word)
    tension = _tension(tension)
    face = dice.roll(1, FACES, "question oracle").faces[0]
    return Answer(question=question.strip(), word=word, odds=odds, tension=tension, roll=face,
                  answer=answer_for(face, odds), twist=is_twist(face, tension))


def answer_twist(answer: Answer, asker: str, dice: Dice, **twist_options: Any) -> TwistDrawn | None:
    """The twist a doubled answer brings the asker (a 6-kind twist: threat, eerie or tie), else None.

    ``twist_options`` go to :func:`wyrd.oracle.twists.draw_twist` (``story_tables``, ``context`` ...);
    ``weights`` is the story's category weights.
    """
    if not answer.twist:
        return None
    weights = twist_options.pop("weights", None)
    category = roll(category_table(True, weights), dice).row
    return draw_twist(asker, category, dice, result=answer.roll, **twist_options)


class SceneOutcome(StrEnum):
    EXPECTED = "expected"
    ALTERED = "altered"  # a best of 1-2: a mundane intrusion
    INTERRUPTED = "interrupted"  # any 6: that character's twist


class SceneTest(BaseModel):
    """How a scene opens, from the scene's first Wyrd roll."""

    model_config = ConfigDict(frozen=True)

    outcome: SceneOutcome
    best: int
    results: dict[str, int]
    interrupted_by: list[str]  # every character with a 6, in roll order
    intrusion: str | None  # "mundane" when altered

    def event(self, scene: str | None = None) -> SceneTested:
        return SceneTested(scene=scene, outcome=self.outcome.value, best=self.best, results=dict(self.results),
                           interrupted_by=list(self.interrupted_by))


def scene_test(results: Mapping[str, int]) -> SceneTest:
    """Read the scene's first Wyrd roll (character -> result): interrupted, altered or expected."""
    if not results:
        raise ValueError("the scene test needs the Wyrd results of everyone present")
    sixes = [name for name, r in results.items() if r >= 6]
    best = max(results.values())
    if sixes:
        outcome, intrusion = SceneOutcome.INTERRUPTED, None
    elif best <= 2:
        outcome, intrusion = SceneOutcome.ALTERED, "mundane"
    else:
        outcome, intrusion = SceneOutcome.EXPECTED, None
    return SceneTest(outcome=outcome, best=best, results=dict(results), interrupted_by=sixes, intrusion=intrusion)


def scene_test_odds(wyrd: Mapping[str, int]) -> dict[SceneOutcome, Fraction]:
    """Exact chances of each scene-test outcome for personal Wyrd pools (0 dice reads as a 1)."""
    no_six = Fraction(1)
    all_low = Fraction(1)
    for n in wyrd.values():
        no_six *= Fraction(5, 6) ** n
        all_low *= Fraction(2, 6) ** n
    interrupted = 1 - no_six
    return {SceneOutcome.INTERRUPTED: interrupted, SceneOutcome.ALTERED: all_low,
            SceneOutcome.EXPECTED: no_six - all_low}


class Inspiration(BaseModel):
    """Two words to think with: an action and a theme."""

    model_config = ConfigDict(frozen=True)

    action: str
    theme: str
    rows: tuple[str, str]

    @property
    def text(self) -> str:
        return f"{self.action} {self.theme}"


def inspire(dice: Dice, *, tables: Mapping[str, Table] | None = None,
            deck_state: DeckState | None = None) -> Inspiration:
    """Roll a d100 on the action table and one on the theme table."""
    action = roll("meaning/action", dice, deck_state=deck_state, tables=tables)
    theme = roll("meaning/theme", dice, deck_state=deck_state, tables=tables)
    return Inspiration(action=action.text, theme=theme.raw,
                       rows=(f"{action.table}#{action.row}", f"{theme.table}#{theme.row}"))
