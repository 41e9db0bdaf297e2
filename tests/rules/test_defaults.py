"""Empty-list defaults made by a plain function (issue 21, point 2: pydantic reads each default
factory's signature as it builds a validator, and the builtin ``list``'s is parsed anew every time)."""

from __future__ import annotations

import importlib

from pydantic import BaseModel, Field

from wyrd.rules.defaults import empty_list
from wyrd.rulesets import rulesets


class _Bag(BaseModel):
    items: list[int] = Field(default_factory=empty_list)


def test_each_model_made_without_the_field_gets_a_list_of_its_own() -> None:
    first, second = _Bag(), _Bag()
    first.items.append(1)
    assert second.items == [] and first.items == [1]
    assert _Bag.model_json_schema()["properties"]["items"] == {"items": {"type": "integer"}, "title": "Items",
                                                               "type": "array"}


def _models(cls: type[BaseModel]) -> list[type[BaseModel]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_models(sub)]
    return found


def test_no_model_of_a_game_takes_the_builtin_list_as_a_default_factory() -> None:
    """The rules, kits and story formats of every ruleset, with the play engine and the oracle."""
    for ruleset in rulesets():
        for part in (ruleset.rules, ruleset.kit, ruleset.stories):
            if part:
                importlib.import_module(part.partition(":")[0])
    importlib.import_module("wyrd.play.frontends.console")
    listed = [f"{m.__module__}.{m.__qualname__}.{name}" for m in _models(BaseModel)
              if m.__module__.startswith("wyrd.") and not m.__module__.startswith("wyrd.sim.")
              for name, field in m.__pydantic_fields__.items() if field.default_factory is list]
    assert listed == []
