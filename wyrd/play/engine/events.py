"""The events every ruleset's games record besides the rules' own, and each ruleset's union of kinds.

A game's events stay typed from the rules to the edge: the save file and the JSON
output dump them, and what reads them back (resume, undo, tests) parses them
through the ruleset's union, :func:`union_of`, which its kit offers as
``PlayHooks.events``. The shared kinds are here (the session's start, a refused
line, an undo, narration that failed, the story chosen); the oracle's are in
:mod:`wyrd.oracle.events`, a kit's own in that kit.

:class:`Recorded` is an event with its number in the game (``seq``; None for a
refused line, which is never saved). Its JSON is the event's with ``seq`` first,
as the save file and ``--json`` have always written it.
"""

from collections.abc import Iterable, Mapping
from functools import cached_property, reduce
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from wyrd.oracle.events import AnswerGiven, Inspiration, Interpreted, Narrated, SceneTested, TwistDrawn
from wyrd.rules.actions import Event

__all__ = [
    "ORACLE_ADDED", "ORACLE_EVENTS", "SHARED_EVENTS", "EventKinds", "EventUnion", "NarrationFailed", "Recorded",
    "Refused", "SessionStarted", "StoryChosen", "Undone", "plain", "union_of",
]


class SessionStarted(Event):
    kind: Literal["session_started"] = "session_started"
    story: str | None
    ruleset: str
    seed: int


class NarrationFailed(Event):
    """The narration raised: the command stands, untold."""

    kind: Literal["narration_failed"] = "narration_failed"
    reason: str


class Refused(Event):
    """A line that changed nothing, and which rule refused it."""

    kind: Literal["refused"] = "refused"
    command: str
    reason: str
    rule: str


class Undone(Event):
    kind: Literal["undone"] = "undone"
    command: str
    command_seq: int


class StoryChosen(Event):
    """A story begins: its id, title, premise and the characters ready to play."""

    kind: Literal["story_chosen"] = "story_chosen"
    story: str
    title: str
    premise: str
    pregens: list[str]


# What any game may record, whatever its ruleset (the oracle's narration among them).
SHARED_EVENTS: tuple[type[Event], ...] = (SessionStarted, NarrationFailed, Refused, Undone, Narrated)
# The oracle's other kinds: every ruleset's kit draws on them (`ask`, `inspire`, twists).
# The kinds a kit's oracle verbs add after the rules: saved with the command, never replayed.
# A model's reading of an answer, a twist or an inspiration (``interpretation``) is one of them too.
ORACLE_ADDED: frozenset[str] = frozenset({"twist", "scene_test", "answer", "inspiration", "interpretation"})
ORACLE_EVENTS: tuple[type[Event], ...] = (TwistDrawn, SceneTested, AnswerGiven, Inspiration, Interpreted)

EventUnion = TypeAdapter[Event]


def _kinds(models: Iterable[Any]) -> list[type[Event]]:
    """The event models in ``models``: classes, and the members of ``Annotated`` unions."""
    out: list[type[Event]] = []
    for model in models:
        if isinstance(model, type) and issubclass(model, Event):
            out.append(model)
            continue
        inner = getattr(model, "__origin__", model)  # Annotated[X | Y, ...] -> X | Y
        out += _kinds(getattr(inner, "__args__", ()))
    return out


def union_of(*models: Any) -> EventUnion:
    """The discriminated union (on ``kind``) of ``models`` and the shared kinds, as a TypeAdapter.

    ``models`` are event classes or ``Annotated`` unions of them (a rules package's
    ``AbacusEvent`` ...). A kind given twice is kept once (the first); two different
    models of one kind are an error.
    """
    found: dict[str, type[Event]] = {}
    for model in _kinds([*models, *SHARED_EVENTS]):
        kind = model.model_fields["kind"].default
        if found.setdefault(kind, model) is not model:
            raise TypeError(f"two models of the event kind {kind!r}: {found[kind].__name__}, {model.__name__}")
    members = reduce(lambda a, b: a | b, found.values())  # type: ignore[arg-type, return-value]
    adapter: TypeAdapter[Event] = TypeAdapter(Annotated[members, Field(discriminator="kind")])  # type: ignore[arg-type]
    return adapter


class EventKinds:
    """A ruleset's kinds of event: the models, and their union built when first used.

    Building the union takes a moment, so a kit names its kinds at import and the
    first game that reads saved events builds it (the first prompt never waits).
    """

    def __init__(self, *models: Any) -> None:
        self.models = tuple(_kinds(models))

    @cached_property
    def adapter(self) -> EventUnion:
        """The discriminated union of these kinds and the shared ones."""
        return union_of(*self.models)

    def parse(self, data: Mapping[str, Any]) -> Event:
        """One event from its JSON (``seq`` and all other fields as saved)."""
        return self.adapter.validate_python({k: v for k, v in data.items() if k != "seq"})

    def model(self, kind: str) -> type[Event]:
        """The model of ``kind`` (KeyError: no game of the ruleset records it)."""
        for model in (*self.models, *SHARED_EVENTS):
            if model.model_fields["kind"].default == kind:
                return model
        raise KeyError(kind)

    def sketch(self, data: Mapping[str, Any]) -> Event:
        """An event of ``data["kind"]`` from the fields given (tests and tools that need only a few).

        Each field given is checked and read as its model reads it (a word as its enum); the
        fields left out are not filled in.
        """
        fields = {k: v for k, v in data.items() if k != "seq"}
        model = self.model(str(fields["kind"]))
        read: dict[str, Any] = {}
        for name, value in fields.items():
            info = model.model_fields.get(name)
            annotation = info.annotation if info is not None else None
            read[name] = value if annotation is None else TypeAdapter(annotation).validate_python(value)
        return model.model_construct(**read)

    def kinds(self) -> frozenset[str]:
        """Every kind a game of the ruleset can record."""
        return frozenset(str(m.model_fields["kind"].default) for m in (*self.models, *SHARED_EVENTS))


class Recorded(BaseModel):
    """One event with its number in the game (None: a refused line, never saved)."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built at the first event, after the prompt is shown

    seq: int | None
    event: Event  # dumped as its own kind (``Event`` serializes polymorphically)

    @property
    def kind(self) -> str:
        return self.event.kind

    def plain(self) -> dict[str, Any]:
        """The JSON the save file and ``--json`` hold: ``seq``, then the event's fields."""
        return {"seq": self.seq, **self.event.model_dump(mode="json")}

    # A front-end or a script at the edge may read the event as its JSON would read:
    # ``recorded["kind"]``, ``recorded.get("reason")`` (the engine reads ``.event``).
    def __getitem__(self, key: str) -> Any:
        return self.plain()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.plain().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.plain()

    @classmethod
    def parse(cls, data: Mapping[str, Any], kinds: EventKinds) -> "Recorded":
        """A saved event read back through its ruleset's union."""
        return cls(seq=data.get("seq"), event=kinds.parse(data))


def plain(events: Iterable[Recorded | Event | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Events as JSON-ready dicts (the edge: the save file, the JSON output)."""
    out: list[dict[str, Any]] = []
    for e in events:
        if isinstance(e, Recorded):
            out.append(e.plain())
        elif isinstance(e, Event):
            out.append(e.model_dump(mode="json"))
        else:
            out.append(dict(e))
    return out
