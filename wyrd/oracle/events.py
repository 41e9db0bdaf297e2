"""The events the oracle makes, typed like the rules' own: narration, twists, scene tests, answers, readings.

The play layer stores them with a command's events and never replays them. Their
JSON is what the save files and the ``--json`` output have always held: the field
order is the order written here, and a narration leaves out the marks it lacks.
"""

from typing import Any, ClassVar, Literal

from pydantic import SerializerFunctionWrapHandler, model_serializer

from wyrd.rules.actions import Event

__all__ = ["AnswerGiven", "Inspiration", "Interpreted", "Narrated", "SceneTested", "Sparse", "TwistDrawn", "field"]


class Sparse(Event):
    """An event whose ``OMITTED`` fields are left out of its JSON when unset (None)."""

    OMITTED: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _omit_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # These events have always carried only the fields they have: keep that JSON.
        out: dict[str, Any] = handler(self)
        return {k: v for k, v in out.items() if v is not None or k not in self.OMITTED}


class Narrated(Sparse):
    """A narrator's text for one moment (``kind`` ``narration``).

    ``moment`` or ``table`` say what was told (a kit's marks), ``fallback`` why a
    model's text gave way to the tables; each is absent from the JSON when unset.
    """

    kind: Literal["narration"] = "narration"
    text: str
    source: str = ""
    moment: str | None = None
    table: str | None = None
    fallback: str | None = None

    OMITTED: ClassVar[frozenset[str]] = frozenset({"moment", "table", "fallback"})


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


class AnswerGiven(Sparse):
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
    chances: dict[str, str] | None = None  # each answer's exact chance, and a twist's, as asked

    OMITTED: ClassVar[frozenset[str]] = frozenset({"chances"})


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
