"""A story validated once and kept between starts (issue 21, point 2: a new game or a resumed one of
any ruleset takes its story's models as an earlier start validated them, instead of building the
format's validators and validating again).

What a kept story gives is exactly what validating gives, its JSON form included, for every bundled
story of every ruleset; data that fails is never kept and fails as before; a kept result changed by
hand, or one that would make anything but the story's own models, is validated anew; data JSON
cannot give back exactly is not kept; nothing is kept unless the program names a folder.
"""

from __future__ import annotations

import hashlib
import operator
import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import pytest
from pydantic import BaseModel, ValidationError

from wyrd import kept as keeping
from wyrd.kept import file_stamps
from wyrd.rules.wolden.cults import Cult
from wyrd.stories import modelkept
from wyrd.stories.abacus.schema import Story
from wyrd.stories.feat.scenario import FeatStory
from wyrd.stories.lots.scenario import Scenario as LotsScenario
from wyrd.stories.modelkept import dumped, validated
from wyrd.stories.wolden.scenario import Scenario as WoldenScenario
from wyrd.stories.yamlguard import safe_load
from wyrd.stories.yamlread import read_yaml

CONTENT = Path(modelkept.__file__).resolve().parent / "content"
#: Every bundled story, with the model its ruleset's format validates it with.
BUNDLED: list[tuple[type[BaseModel], Path]] = [
    *((Story, path) for path in sorted(CONTENT.glob("*.yaml"))),
    *((WoldenScenario, path) for path in sorted((CONTENT / "wolden").glob("*.yaml")) if path.stem != "cults"),
    *((FeatStory, path) for path in sorted((CONTENT / "feat").glob("*.yaml"))),
    *((LotsScenario, path) for path in sorted((CONTENT / "lots").glob("*.yaml"))),
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Results kept in a folder of the test's own; nothing validated earlier in the process remembered."""
    where = tmp_path / "cache"
    keeping.keep_in(lambda: where)
    monkeypatch.setattr(modelkept, "_RECENT", type(modelkept._RECENT)())
    yield where
    keeping.keep_in(None)


def _data(model: type[BaseModel], path: Path) -> Any:
    # Each format's own reading: the Abacus reads YAML 1.2 with positions, the others YAML 1.1.
    return read_yaml(path)[0] if model is Story else safe_load(path.read_text(encoding="utf-8"), source=path)


def _forget() -> None:
    """As a new start: nothing validated in this process is remembered."""
    modelkept._RECENT.clear()


def _never_validated(monkeypatch: pytest.MonkeyPatch, model: type[BaseModel]) -> None:
    def refuse(cls: type[BaseModel], *args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{cls.__name__} validated again")

    monkeypatch.setattr(model, "model_validate", classmethod(refuse))


def _kept(where: Path) -> list[Path]:
    return sorted(where.glob("model-*.pickle"))


@pytest.mark.parametrize(("model", "path"), BUNDLED, ids=[path.stem for _, path in BUNDLED])
def test_a_kept_story_is_the_story_validating_gives_and_so_is_its_json_form(
        folder: Path, model: type[BaseModel], path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _data(model, path)
    plain = model.model_validate(data)
    first = validated(model, data)  # validated, then kept under the file's data and under its JSON form
    assert first == plain and dumped(first) == plain.model_dump(mode="json")
    assert len(_kept(folder)) == 2
    _forget()
    _never_validated(monkeypatch, model)
    again = validated(model, _data(model, path))
    assert again == plain and again is not first
    assert dumped(again) == plain.model_dump(mode="json")
    # a saved game's story (its JSON form, as a save holds it) is kept too
    _forget()
    resumed = validated(model, plain.model_dump(mode="json"))
    assert resumed == plain


@pytest.mark.parametrize(("model", "path"), BUNDLED, ids=[path.stem for _, path in BUNDLED])
def test_a_story_read_from_its_kept_reading_is_named_by_the_readings_own_text(
        folder: Path, model: type[BaseModel], path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, point 2: a new game whose story file was read before takes its data from the kept
    reading, whose JSON text names the kept model: the data is not written out again (0.7 ms for The
    Hollow Fair), and the result is the one the written-out data names."""
    plain = model.model_validate(_data(model, path))
    validated(model, _data(model, path))  # the first start: read, validated, kept
    _forget()
    kept_before = _kept(folder)

    def refuse(data: Any) -> str | None:
        raise AssertionError("the data was written out again")

    monkeypatch.setattr(modelkept, "_text", refuse)
    _never_validated(monkeypatch, model)
    again = validated(model, _data(model, path))  # the reading is the kept one now
    assert again == plain and dumped(again) == plain.model_dump(mode="json")
    assert _kept(folder) == kept_before


def test_data_named_by_a_text_is_named_so_only_while_it_is_that_very_object(folder: Path) -> None:
    data = {"id": "a"}
    modelkept.known_text(data, '{"id":"a"}')
    assert modelkept._known(data) == '{"id":"a"}'
    assert modelkept._known({"id": "a"}) is None  # an equal mapping, another object
    modelkept.known_text(["not", "a", "mapping"], "[]")
    assert modelkept._known(["not", "a", "mapping"]) is None


def test_the_cults_a_wolden_game_installs_are_kept_too_with_their_generic_tables(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entries = safe_load((CONTENT / "wolden" / "cults.yaml").read_text(encoding="utf-8"))["cults"]
    plain = [Cult.model_validate(entry) for entry in entries]
    assert [validated(Cult, entry) for entry in entries] == plain
    _forget()
    _never_validated(monkeypatch, Cult)
    again = [validated(Cult, entry) for entry in entries]
    assert again == plain
    # a cult's tables are a generic model made for their rows: made again as the same class
    assert [type(cult.powers) for cult in again] == [type(cult.powers) for cult in plain]
    assert [dumped(cult) for cult in again] == [cult.model_dump(mode="json") for cult in plain]


def test_the_same_data_is_validated_once_in_a_process_and_its_json_form_comes_without_the_serializer(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _data(Story, CONTENT / "hollow-fair.yaml")
    calls: list[object] = []
    original = Story.model_validate.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Story], /, obj: Any, **kwargs: Any) -> Story:
        calls.append(obj)
        return original(cls, obj, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Story, "model_validate", classmethod(counted))
    story = validated(Story, data)
    assert validated(Story, data) is story and len(calls) == 1
    form = dumped(story)
    # the rules and the story's follower read the same arguments in turn: validated once for both
    assert validated(Story, form) is story and len(calls) == 1

    def no_serializer(self: BaseModel, **kwargs: Any) -> Any:
        raise AssertionError("dumped again")

    monkeypatch.setattr(Story, "model_dump", no_serializer)
    assert dumped(story) is form


def test_without_a_folder_nothing_is_kept_and_the_story_is_validated(tmp_path: Path) -> None:
    keeping.keep_in(None)
    data = _data(Story, CONTENT / "hollow-fair.yaml")
    assert validated(Story, data) == Story.model_validate(data)
    assert not list(tmp_path.rglob("model-*"))


def test_a_story_that_fails_fails_as_before_and_is_not_kept(folder: Path) -> None:
    data = {**_data(Story, CONTENT / "hollow-fair.yaml"), "scenes": "not a list"}
    with pytest.raises(ValidationError) as kept_way:
        validated(Story, data)
    with pytest.raises(ValidationError) as plain_way:
        Story.model_validate(data)
    assert kept_way.value.errors() == plain_way.value.errors()
    assert not _kept(folder)


@pytest.mark.parametrize("odd", [
    pytest.param(lambda data: {**data, "scenes": tuple(data["scenes"])}, id="a tuple reads back as a list"),
    pytest.param(lambda data: Story.model_validate(data), id="not a mapping"),
])
def test_data_json_would_not_give_back_exactly_is_validated_each_time_and_not_kept(folder: Path, odd: Any) -> None:
    data = odd(_data(Story, CONTENT / "hollow-fair.yaml"))
    assert validated(Story, data) == Story.model_validate(data)
    assert not _kept(folder)


def test_a_kept_result_changed_by_hand_is_not_taken(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _data(Story, CONTENT / "hollow-fair.yaml")
    plain = validated(Story, data)
    for file in _kept(folder):
        check, _, body = file.read_bytes().partition(b"\n")
        file.write_bytes(check + b"\n" + body.replace(b"Hollow Fair", b"Hollow Fain"))
    _forget()
    assert validated(Story, data) == plain  # validated anew: the digest does not match


def _rewritten(folder: Path, payload: bytes) -> None:
    """Every kept result replaced by ``payload``, with a digest to match (as only a deliberate edit would)."""
    for file in _kept(folder):
        file.write_bytes(hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload)


class _Calls:
    """Unpickled, it would call ``wyrd.kept.keep_in``: a function of ours, not a story's model."""

    def __reduce__(self) -> tuple[Any, ...]:
        return keeping.keep_in, (None,)


class _System:
    """Unpickled, it would run a command that leaves a file."""

    def __init__(self, mark: Path) -> None:
        self.mark = mark

    def __reduce__(self) -> tuple[Any, ...]:
        return os.system, (f"touch '{self.mark}'",)


class _Item:
    """Unpickled, it would ask a model that is not generic for a parametrization."""

    def __reduce__(self) -> tuple[Any, ...]:
        return operator.getitem, (Story, "not a type")


@pytest.mark.parametrize("payload", [
    pytest.param(lambda mark: pickle.dumps((_Calls(), {})), id="a function of ours"),
    pytest.param(lambda mark: pickle.dumps((_System(mark), {})), id="a function of the system"),
    pytest.param(lambda mark: pickle.dumps(({"a": 1}, {})), id="not a story"),
    pytest.param(lambda mark: pickle.dumps((_Item(), {})), id="a parametrization that is not one"),
    pytest.param(lambda mark: b"\x80\x05not a pickle", id="not a pickle"),
])
def test_a_kept_result_that_would_make_anything_but_the_story_is_validated_anew(
        folder: Path, tmp_path: Path, payload: Any) -> None:
    data = _data(Story, CONTENT / "hollow-fair.yaml")
    plain = validated(Story, data)
    mark = tmp_path / "ran"
    _rewritten(folder, payload(mark))
    _forget()
    assert validated(Story, data) == plain
    assert keeping.kept_in() == folder  # keep_in(None) was never called
    assert not mark.exists()  # nor the command


def test_a_story_model_is_kept_with_its_fields_and_not_what_its_methods_cached(folder: Path) -> None:
    data = _data(FeatStory, CONTENT / "feat" / "lantern-at-gull-reach.yaml")
    story = validated(FeatStory, data)
    story.heroes()  # works its lookup out once, and caches it on the model
    assert set(story.__dict__) - set(FeatStory.model_fields)
    modelkept._keep(FeatStory, data, modelkept._name(FeatStory, data, modelkept._text(data) or ""),
                    story, dumped(story))
    _forget()
    again = validated(FeatStory, data)
    assert set(again.__dict__) == set(FeatStory.model_fields)
    assert again == story and again.heroes() == story.heroes()


def test_a_few_results_are_kept_for_each_story(folder: Path) -> None:
    data = _data(Story, CONTENT / "hollow-fair.yaml")
    for title in ("One", "Two", "Three", "Four"):
        validated(Story, {**data, "title": title})
    names = _kept(folder)
    assert len(names) == modelkept._PER_STORY
    _forget()
    assert validated(Story, {**data, "title": "Four"}).title == "Four"


def test_the_code_is_named_by_each_source_files_path_time_and_size(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n")
    (tmp_path / "pkg" / "sub" / "b.py").write_text("B = 2\n")
    (tmp_path / "pkg" / "__pycache__" / "c.py").write_text("")
    (tmp_path / "pkg" / "notes.txt").write_text("not code")

    def lines() -> list[str]:
        return sorted(file_stamps(str(tmp_path), (".py",)))  # as modelkept names each layer's code

    before = lines()
    assert [line.split("\0")[0] for line in before] == ["pkg/a.py", "pkg/sub/b.py"]
    (tmp_path / "pkg" / "sub" / "b.py").write_text("B = 3\n")
    os.utime(tmp_path / "pkg" / "sub" / "b.py", ns=(1, 1))
    assert lines() != before


T = TypeVar("T")


class _Box(BaseModel, Generic[T]):
    item: T


class _Holder(BaseModel):
    id: str
    box: _Box[int]


def test_a_model_of_another_package_is_validated_each_time_and_not_kept(folder: Path) -> None:
    # the reader makes Wyrd's own models alone, so another's is not written
    data = {"id": "h", "box": {"item": 3}}
    assert validated(_Holder, data) == _Holder.model_validate(data)
    assert not _kept(folder)



def test_each_rulesets_game_state_keeps_its_own_few() -> None:
    """A few quit games of each ruleset are kept: one ruleset's state does not push out another's."""
    from wyrd.rules.abacus.state import GameState as AbacusState
    from wyrd.rules.wolden.state import GameState as WoldenState

    assert modelkept._family(AbacusState, {}) != modelkept._family(WoldenState, {})
    assert modelkept._family(Story, {"id": "a"}) != modelkept._family(Story, {"id": "b"})


@pytest.mark.parametrize("story", ["hollow-fair", "the-drowned-bell", "lantern-at-gull-reach", "harrow-mere"])
def test_a_resumed_games_state_is_named_by_its_snapshots_own_text(
        story: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, point 2: a resume reads its state from the save's snapshot, whose JSON text names the
    state's kept result: the state is not written out again to find it, in any ruleset."""
    from wyrd.play.cli.main import main
    from wyrd.play.engine.savefile import SaveFile

    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    monkeypatch.setenv("WYRD_MODEL", "table")
    script = tmp_path / "status.txt"
    script.write_text("status\n", encoding="utf-8")
    save = tmp_path / "g.wyrd"
    try:
        assert main(["play", "--story", story, "--seed", "1", "--save", str(save), "--script", str(script)]) == 0
        written: list[Any] = []
        original = modelkept._text

        def spied(data: Any) -> str | None:
            written.append(data)
            return original(data)

        monkeypatch.setattr(modelkept, "_text", spied)
        _forget()
        assert main(["resume", str(save), "--script", str(script)]) == 0
    finally:
        keeping.keep_in(None)
    with SaveFile.open(save, readonly=True) as reading:
        snap = reading.latest_snapshot()
    assert snap is not None and snap.state_text is not None
    assert all(data != snap.state for data in written)
