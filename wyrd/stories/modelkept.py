"""A story, or a game's state as quitting left it, validated once and kept between starts under a
digest of its data.

Validating is most of what a start spends on its story: the first validation of a format builds the
validator of every model the story is made of (7 to 11 ms for The Hollow Fair, 4 to 6 ms for the other
rulesets' stories), and a new game validates its story from the file, a resumed one from the save, with
the game's state (bench/RESULTS.md, issue 21). :func:`validated` keeps what a validation that passed
gave, the model and its JSON form, in the kept folder (:mod:`wyrd.kept`), and gives it back for the
same data: data whose JSON text is the same and that JSON gives back exactly. Closing a game keeps its
state as the save holds it (:func:`keep_validated`), for the resume. Any other data, data that fails,
a model that cannot be written, or a kept result that cannot be read is validated as it always is.

What is kept depends on the data, on the code of every layer a story or a state may import (the
rules, the registry and the story formats: ``tests/test_architecture.py`` holds them to these), on
pydantic's version and on Python's: the code by the name, time and size of each of its source files,
so an edit or an upgrade gives another name. It is read with an unpickler that makes only the models
and enumerations of modules already imported under ``wyrd`` (and a generic model's parametrization
of them); it is not a guard against someone who rewrites the player's own folder.
"""

from __future__ import annotations

import contextlib
import copyreg
import functools
import json
import operator
import os
import sys
from collections import OrderedDict
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel

from wyrd.kept import file_stamps, keep, kept, kept_in

__all__ = ["LAYERS", "dumped", "exact_json", "keep_validated", "known_text", "validated"]

M = TypeVar("M", bound=BaseModel)

#: The packages under ``wyrd`` whose code a story model's validation may run.
LAYERS = ("rules", "rulesets", "stories")
# Bumped when what is written changes shape.
_FORMAT = b"wyrd validated story 1\n"
_PREFIX = "model-"
# Kept results of one model and one story id: the file's reading and the saved form, for a few edits.
_PER_STORY = 4
# The data most recently validated in this process, by identity: a command's arguments are read by
# the rules and by the story's follower in turn, and validated once for both.
_RECENT: OrderedDict[int, tuple[object, BaseModel, dict[str, Any]]] = OrderedDict()
_RECENT_SIZE = 8
# The JSON text of data read from it, by the data's identity (a kept reading of a story file): the
# name of the data's kept result is made from that text, not from the data written out again.
_TEXTS: OrderedDict[int, tuple[object, str]] = OrderedDict()


def validated(model: type[M], data: Any) -> M:
    """``model.model_validate(data)``: kept for this data when a folder is kept in, and given back.

    Raises what the validation raises, as it always does: only a result that passed is kept.
    """
    memo = _RECENT.get(id(data))
    if memo is not None and memo[0] is data and type(memo[1]) is model:
        return memo[1]
    text = (_known(data) or _text(data)) if kept_in() is not None else None
    name = _name(model, data, text) if text is not None else None
    found = _load(name, model) if name is not None else None
    if found is not None:
        instance, dump = found
    else:
        instance = model.model_validate(data)
        dump = instance.model_dump(mode="json")
        if name is not None:
            _keep(model, data, name, instance, dump)
    _remember(data, instance, dump)
    _remember(dump, instance, dump)
    return instance


def keep_validated(model: type[BaseModel], data: Any) -> None:
    """Validate ``data`` now and keep the result for a later start, when a folder is kept in.

    For data written now and read by a later start: a game's state as quitting leaves it in the
    save. Data that fails is left for the reader to refuse, as it always does.
    """
    if kept_in() is not None:
        with contextlib.suppress(ValueError):  # pydantic's ValidationError among them
            validated(model, data)


def dumped(instance: BaseModel) -> dict[str, Any]:
    """``instance.model_dump(mode="json")``, without the serializer when :func:`validated` gave it.

    The story models are frozen, so the form kept beside a model is still its form.
    """
    for _data, model, dump in _RECENT.values():
        if model is instance:
            return dump
    return instance.model_dump(mode="json")


def known_text(data: object, text: str) -> None:
    """Say that ``data`` is what the JSON ``text`` reads as, written as :func:`exact_json` writes it.

    The caller hands ``data`` on as it was read: a result kept under the text is given for it.
    Only a mapping is named so (as :func:`validated` names only mappings).
    """
    if not isinstance(data, dict):
        return
    _TEXTS.pop(id(data), None)
    _TEXTS[id(data)] = (data, text)
    while len(_TEXTS) > _RECENT_SIZE:
        _TEXTS.popitem(last=False)


def _known(data: object) -> str | None:
    found = _TEXTS.get(id(data))
    return found[1] if found is not None and found[0] is data else None


def _remember(data: object, instance: BaseModel, dump: dict[str, Any]) -> None:
    _RECENT.pop(id(data), None)
    _RECENT[id(data)] = (data, instance, dump)
    while len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)


def exact_json(data: Any) -> str | None:
    """The compact JSON text of ``data``, or None when JSON would not give the same data back.

    A tuple, a key that is not text or a value JSON has no form for would read back as something
    else. A text subclass, such as an enumeration's member, reads back equal to its text and is
    taken for it. The one way data is written out here and by the kept readings
    (:mod:`wyrd.stories.yamlkept`), so a reading's text names what its data names.
    """
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return text if json.loads(text) == data else None


def _text(data: Any) -> str | None:
    """The JSON text naming ``data``'s kept result (None: not a mapping JSON gives back exactly).

    The data is meant to be as JSON or YAML gives it (a file's, a save's, a model's JSON form):
    another value may validate otherwise.
    """
    return exact_json(data) if isinstance(data, dict) else None


def _name(model: type[BaseModel], data: dict[str, Any], text: str) -> str:
    import hashlib

    key = hashlib.sha256(_FORMAT + _code() + f"{model.__module__}.{model.__qualname__}\0".encode()
                         + text.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{_family(model, data)}{key}.pickle"


def _family(model: type[BaseModel], data: dict[str, Any]) -> str:
    """The start of the names of one model's kept results for this id (a story's; a state has none):
    each ruleset's ``GameState`` is a family of its own."""
    import hashlib

    which = f"{model.__module__}.{model.__qualname__}\0{data.get('id')!r}".encode("utf-8", "surrogatepass")
    return f"{_PREFIX}{model.__name__.lower()}-{hashlib.sha256(which).hexdigest()[:12]}-"


@functools.cache
def _code() -> bytes:
    """A digest of the code a story model's validation may run, and of the libraries' versions."""
    import hashlib

    import pydantic
    import pydantic_core

    import wyrd

    digest = hashlib.sha256(f"{sys.version}\0{pydantic.VERSION}\0{pydantic_core.__version__}\0"
                            f"{wyrd.__version__}".encode())
    root = os.path.dirname(wyrd.__file__)
    for layer in LAYERS:
        for line in sorted(file_stamps(os.path.join(root, layer), (".py",))):
            digest.update(f"{layer}/{line}\n".encode("utf-8", "surrogateescape"))
    return digest.digest()


def _write(result: tuple[BaseModel, dict[str, Any]]) -> bytes | None:
    """The pickle of ``result``: each model's fields, not what its methods worked out from them and
    cached beside them. None when a value cannot be pickled."""
    import io
    import pickle

    class Writer(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if isinstance(obj, type) and not obj.__module__.startswith("wyrd."):
                raise pickle.PicklingError(f"{obj!r} would not be read back")  # see _reader
            if isinstance(obj, type) and issubclass(obj, BaseModel):
                # A parametrized generic model has no name of its own in its module: it is written
                # as its generic model and arguments, and made again as pydantic makes it (once).
                generic = obj.__pydantic_generic_metadata__
                if generic["origin"] is None:
                    return NotImplemented
                return operator.getitem, (generic["origin"], generic["args"])
            if not isinstance(obj, BaseModel):
                return NotImplemented
            state = obj.__getstate__()
            fields = type(obj).model_fields
            state["__dict__"] = {name: value for name, value in state["__dict__"].items() if name in fields}
            return copyreg.__newobj__, (type(obj),), state  # type: ignore[attr-defined]

    out = io.BytesIO()
    try:
        Writer(out, protocol=pickle.HIGHEST_PROTOCOL).dump(result)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return out.getvalue()


@functools.cache
def _reader() -> type[Any]:
    """An unpickler that makes only the models and enumerations of modules already imported under ``wyrd``.

    Built on pickle's C accelerator where there is one: reading needs nothing of ``pickle.py`` but
    its error, and importing it would be a millisecond more of a start.
    """
    try:
        from _pickle import Unpickler, UnpicklingError
    except ImportError:  # a Python without the accelerator
        from pickle import Unpickler, UnpicklingError

    class Reader(Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) == ("_operator", "getitem"):
                return operator.getitem  # a generic model with its arguments, each found here
            # a plain name in a module already imported: reading it back imports nothing
            found = getattr(sys.modules.get(module), name, None) \
                if module.startswith("wyrd.") and name.isidentifier() else None
            if isinstance(found, type) and issubclass(found, BaseModel | Enum):
                return found
            raise UnpicklingError(f"{module}.{name} is not a story's model")

    return Reader


def _load(name: str, model: type[M]) -> tuple[M, dict[str, Any]] | None:
    import io

    body = kept(name)
    if body is None:
        return None
    try:
        instance, dump = _reader()(io.BytesIO(body)).load()
    except Exception:  # whatever a kept result that does not read raises: validate again
        return None
    return (instance, dump) if type(instance) is model and isinstance(dump, dict) else None


def _keep(model: type[BaseModel], data: dict[str, Any], name: str, instance: BaseModel,
          dump: dict[str, Any]) -> None:
    """Keep the result under the data's name and under its JSON form's (a saved game's story)."""
    body = _write((instance, dump))
    if body is None:
        return
    names = {name}
    text = _text(dump)
    if text is not None:
        names.add(_name(model, dump, text))
    for each in names:
        keep(each, body, replacing=f"{_family(model, data)}*.pickle", most=_PER_STORY)
