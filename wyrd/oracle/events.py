"""The events the oracle makes, typed like the rules' own: narration, twists, scene tests, answers, readings.

The play layer stores them with a command's events and never replays them. Their
JSON is what the save files and the ``--json`` output have always held: the field
order is the order written here, and a narration leaves out the marks it lacks.
"""

from typing import Any, Literal

from wyrd.rules.actions import Event
from wyrd.rules.defaults import left_out_unset

__all__ = ["AnswerGiven", "Inspiration", "Interpreted", "Narrated", "SceneTested", "TwistDrawn", "field"]

# These events have always carried only the fields they have: a mark left unset is left out of the
# JSON (``left_out_unset``), and the JSON stays as saves and scripts have always read it.


class Narrated(Event):
    """A narrator's text for one moment (``kind`` ``narration``).

    ``moment`` or ``table`` say what was told (a kit's marks), ``fallback`` why a
    model's text gave way to the tables; each is absent from the JSON when unset.
    """

    kind: Literal["narration"] = "narration"
    text: str
    source: str = ""
    moment: str | None = left_out_unset()
    table: str | None = left_out_unset()
    fallback: str | None = left_out_unset()


class TwistDrawn(Event):
    """A twist a Wyrd roll brings a character: its category and the row drawn."""

    kind: Literal["twist"] = "twist"
    character: str
    result: int
    category: str
    text: str
    table: str
    row: str


class SceneTested(Event):
    """How a scene opens, read from its first Wyrd roll."""

    kind: Literal["scene_test"] = "scene_test"
    scene: str | None
    outcome: str
    best: int
    results: dict[str, int]
    interrupted_by: list[str]


class AnswerGiven(Event):
    """The question oracle's answer to a yes/no question."""

    kind: Literal["answer"] = "answer"
    question: str
    asker: str | None
    odds: str
    chance: int
    tension: int
    roll: int
    answer: str
    twist: bool
    chances: dict[str, str] | None = left_out_unset()  # each answer's exact chance, and a twist's, as asked


class Inspiration(Event):
    """Two words from the meaning tables, an action and a theme, for a table stuck for what comes next."""

    kind: Literal["inspiration"] = "inspiration"
    action: str
    theme: str


class Interpreted(Event):
    """A model's short reading of what the dice gave (``kind`` ``interpretation``): a suggestion, never a fact.

    ``of`` is the kind of event it reads (``answer``, ``twist`` or ``inspiration``), ``source``
    the model that offered it. Only a model offers one; the tables never do.
    """

    kind: Literal["interpretation"] = "interpretation"
    text: str
    source: str = ""
    of: str = ""


def field(event: Event, name: str, default: Any = None) -> Any:
    """The field ``name`` of an event of any ruleset's kind (``default`` if its kind has none).

    For code that reads several kinds alike by what they share (a ``character``, a
    ``scene``) once it has checked ``event.kind``; the value is the typed one (an
    enum stays an enum, and reads as its JSON word).
    """
    return getattr(event, name, default)
