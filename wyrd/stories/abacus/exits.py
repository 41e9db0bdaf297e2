"""Where a scene leads: an exit, and the small, closed vocabulary of its conditions.

Also the id syntax and strictness the whole Wyrd Abacus story format shares; the
schema (:mod:`wyrd.stories.abacus.schema`) builds on them and the flow
(:mod:`wyrd.stories.abacus.flow`) reads them, so neither needs the other to start.

Exits ([ours]): every exit whose condition holds is open; the first open one is the
default next scene, and the players may choose any other open one. A condition is
``always``, ``overcome: CHALLENGE``, ``failed: CHALLENGE``, ``clock_at_least: {clock,
value}``, ``counter_at_least: {counter, value}`` or ``defeated_any: true``.

The same conditions choose what the story tells (:class:`Told`): a scene's opening
lines and its ending at the finale, and the postscripts, follow what was rolled.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, StringConstraints, Tag

__all__ = [
    "CONDITION_KEYS",
    "STRICT",
    "ClockCheck",
    "Condition",
    "CounterCheck",
    "Exit",
    "Slug",
    "Told",
    "WhenClock",
    "WhenCounter",
    "WhenDefeated",
    "WhenFailed",
    "WhenOvercome",
]

# Every story model forbids unknown fields, so a misspelt field is an error.
STRICT = ConfigDict(extra="forbid")
# An element id: lower-case words joined by hyphens ("the-gleaner", "scene-2").
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")]

class ClockCheck(BaseModel):
    model_config = STRICT
    clock: Slug
    value: int = Field(ge=0)


class CounterCheck(BaseModel):
    model_config = STRICT
    counter: Slug
    value: int = Field(ge=0)


class WhenOvercome(BaseModel):
    """The challenge was overcome (in any scene so far)."""

    model_config = STRICT
    overcome: Slug


class WhenFailed(BaseModel):
    """The challenge was failed (in any scene so far)."""

    model_config = STRICT
    failed: Slug


class WhenClock(BaseModel):
    model_config = STRICT
    clock_at_least: ClockCheck


class WhenCounter(BaseModel):
    model_config = STRICT
    counter_at_least: CounterCheck


class WhenDefeated(BaseModel):
    """Some character has been defeated (write ``defeated_any: true``)."""

    model_config = STRICT
    defeated_any: Literal[True]


_CONDITION_TYPES: dict[type[BaseModel], str] = {
    WhenOvercome: "overcome", WhenFailed: "failed", WhenClock: "clock_at_least",
    WhenCounter: "counter_at_least", WhenDefeated: "defeated_any",
}
CONDITION_KEYS = ("always", *_CONDITION_TYPES.values())


def _condition_tag(value: Any) -> str | None:
    if isinstance(value, str):
        return "always"
    if isinstance(value, dict) and len(value) == 1:
        key = next(iter(value))
        return key if key in CONDITION_KEYS else None
    return _CONDITION_TYPES.get(type(value))


Condition = Annotated[
    Annotated[Literal["always"], Tag("always")]
    | Annotated[WhenOvercome, Tag("overcome")]
    | Annotated[WhenFailed, Tag("failed")]
    | Annotated[WhenClock, Tag("clock_at_least")]
    | Annotated[WhenCounter, Tag("counter_at_least")]
    | Annotated[WhenDefeated, Tag("defeated_any")],
    Discriminator(
        _condition_tag, custom_error_type="condition",
        custom_error_message="a condition is always, or one of overcome: CHALLENGE, failed: CHALLENGE, "
        "clock_at_least: {clock, value}, counter_at_least: {counter, value}, defeated_any: true",
    ),
]


class Exit(BaseModel):
    """One way out of a scene: the scene it leads to, and when it is open."""

    model_config = STRICT
    scene: Slug
    when: Condition = "always"


class Told(BaseModel):
    """A text the story tells only when its condition holds (what came before: an outcome rolled)."""

    model_config = STRICT
    when: Condition = "always"
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
