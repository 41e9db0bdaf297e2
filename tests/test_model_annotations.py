"""The modules that define a game's models evaluate their annotations as the classes are made (issue 21, point 2).

Under ``from __future__ import annotations`` each annotation of a model's field is text, which
pydantic compiles and evaluates again when the class is made; a game of The Hollow Fair makes
about a hundred models before its first prompt, and that was about 2% of the instructions to
the prompt (bench/RESULTS.md). So a module that makes many of the models a game needs (its
rules' events and state, its story format) writes its annotations to be evaluated as they are
read: a name defined later, or only for type checking, in quotes. So does a module whose model
others derive from: pydantic evaluates a base's annotations again for every class made from it.
"""

from __future__ import annotations

import collections
import inspect

import pytest
from pydantic import BaseModel

from wyrd.play.engine.kits import hooks_for
from wyrd.rulesets import rulesets

#: A module that makes at least this many models on a game's way to its first prompt.
MANY = 5


def _models() -> list[type[BaseModel]]:
    """Every model class made once every ruleset's rules, kit and story format are imported."""
    for ruleset in rulesets():
        ruleset.load()
        hooks_for(ruleset.id)
        if ruleset.stories:
            ruleset.part("stories")
    found: list[type[BaseModel]] = []
    todo = [BaseModel]
    while todo:
        for cls in todo.pop().__subclasses__():
            found.append(cls)
            todo.append(cls)
    return found


def _models_by_module() -> collections.Counter[str]:
    return collections.Counter(cls.__module__ for cls in _models())


def test_modules_with_many_models_do_not_defer_their_annotations() -> None:
    many = [name for name, count in _models_by_module().items() if name.startswith("wyrd.") and count >= MANY]
    assert "wyrd.rules.abacus.events" in many and "wyrd.stories.abacus.schema" in many
    deferred = [name for name in many if "from __future__ import annotations" in
                inspect.getsource(__import__(name, fromlist=["_"]))]
    assert deferred == []


def test_no_model_inherits_annotations_kept_as_text() -> None:
    texts = {f"{base.__module__}.{base.__qualname__}" for cls in _models() for base in cls.__mro__[1:]
             if issubclass(base, BaseModel) and base.__module__.startswith("wyrd.")
             and any(isinstance(a, str) for a in vars(base).get("__annotations__", {}).values())}
    assert texts == set()


@pytest.mark.parametrize("name", ["wyrd.rules.abacus.events", "wyrd.stories.abacus.schema", "wyrd.play.engine.events"])
def test_their_fields_are_types_not_text(name: str) -> None:
    module = __import__(name, fromlist=["_"])
    models = [m for m in vars(module).values()
              if isinstance(m, type) and issubclass(m, BaseModel) and m.__module__ == name]
    assert models
    for model in models:
        assert not any(isinstance(a, str) for a in model.__annotations__.values()), model
