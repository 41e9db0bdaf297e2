"""One story format per ruleset behind one protocol (issue 15, point 3), found through the registry.

Every bundled file of every ruleset loads and lints clean; a broken file of each format is
reported with its file, line and field; ``wyrd check`` picks the format from the file's
``ruleset:`` (else its folder, else the default); a fifth ruleset's format registered from
outside Wyrd is found like the bundled four.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from wyrd import rulesets as registry
from wyrd.rulesets import Ruleset, rulesets
from wyrd.stories.check import check_file, files_below
from wyrd.stories.feat import FeatStory
from wyrd.stories.formats import (
    BUNDLED,
    NoStoryFormat,
    StoryFormat,
    default_ruleset,
    discover,
    format_for,
    formats,
    ruleset_of,
    story_ruleset,
)
from wyrd.stories.loader import read_yaml
from wyrd.stories.lots import Scenario as LotsScenario
from wyrd.stories.problems import Problem, Severity, errors
from wyrd.stories.wolden import Scenario as WoldenScenario

BUNDLED_FILES = [(f.ruleset, path) for f in formats() for path in f.files()]


def test_every_ruleset_of_the_registry_has_its_format() -> None:
    ids = [r.id for r in rulesets()]
    assert [f.ruleset for f in formats()] == ids
    for ident in ids:
        assert format_for(ident).ruleset == ident
        assert isinstance(format_for(ident), StoryFormat)


def test_every_bundled_file_is_some_format_s() -> None:
    assert sorted(p for _, p in BUNDLED_FILES) == files_below(BUNDLED)
    assert len(BUNDLED_FILES) >= 8  # every story file and Wolden's cults (more stories may come)


@pytest.mark.parametrize(("ruleset", "path"), BUNDLED_FILES, ids=[p.name for _, p in BUNDLED_FILES])
def test_every_bundled_file_loads_and_lints_clean(ruleset: str, path: Path) -> None:
    """Issue 15: all 7 bundled files clean under their own ruleset's format, and under `wyrd check`."""
    found = format_for(ruleset)
    assert found.load(path) is not None
    assert found.lint(path) == []
    assert check_file(path) == []
    with path.open(encoding="utf-8") as stream:
        assert ruleset_of(path, yaml.safe_load(stream)) == ruleset


def test_every_bundled_story_is_listed_with_its_ruleset() -> None:
    listed = {i.id: i for i in discover([])}
    assert all(i.ok for i in listed.values())
    assert {i.ruleset for i in listed.values()} == {r.id for r in rulesets()}
    # the cults file is Wolden content but no story
    assert "cults" not in listed and len(listed) == len(BUNDLED_FILES) - 1
    for ident, info in listed.items():
        assert story_ruleset(ident, []) == info.ruleset
    assert story_ruleset("no-such-story", []) is None


# -- which format reads a file ----------------------------------------------------------


def test_the_format_is_the_file_s_ruleset_then_its_folder_then_the_default(tmp_path: Path) -> None:
    (tmp_path / "wolden").mkdir()
    assert ruleset_of(tmp_path / "x.yaml", {"ruleset": "lots"}) == "lots"
    assert ruleset_of(tmp_path / "wolden" / "x.yaml", {"ruleset": "feat"}) == "feat"
    assert ruleset_of(tmp_path / "wolden" / "x.yaml", {"id": "x"}) == "wolden"
    assert ruleset_of(tmp_path / "x.yaml", {"id": "x"}) == default_ruleset() == rulesets()[0].id


def test_a_file_naming_an_unknown_ruleset_is_an_error_at_that_line(tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text("id: odd\ntitle: Odd\nruleset: chess\n", encoding="utf-8")
    [problem] = check_file(path)
    assert (problem.file, problem.line, problem.field) == (str(path), 3, "ruleset")
    assert "no ruleset 'chess'" in problem.message


def test_a_ruleset_without_a_story_format_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    bare = Ruleset(id="bare", name="Bare", seed="-", rules="wyrd.rules", kit="-")
    monkeypatch.setitem(registry._REGISTRY, "bare", bare)
    with pytest.raises(NoStoryFormat, match="Bare"):
        format_for("bare")
    assert "bare" not in [f.ruleset for f in formats()]


# -- a broken file of each format: file, line and field ----------------------------------


def _bundled(ruleset: str) -> Path:
    return next(p for r, p in BUNDLED_FILES if r == ruleset and p.name != "cults.yaml")


def _scene(index: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["scenes"][index][key] = value
    return change


def _enemy_harm(data: dict[str, Any]) -> None:
    data["enemies"][0]["harm"] = 0


def _cult_gifts(data: dict[str, Any]) -> None:
    data["cults"][0]["gifts"] = []


def _cast_spirit(data: dict[str, Any]) -> None:
    data["cast"][0]["spirit"] = "plenty"


def _set(where: str, index: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data[where][index][key] = value
    return change


def _enemy_action(data: dict[str, Any]) -> None:
    data["enemies"][0]["actions"][0]["text"] = "{enemy} bites {foe.their} hand."


# ruleset, what to break, the field named, a word of the message
BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    # Issue 18, point 7: how a thing reads in prose, and a character's pronouns, are checked like the rest
    ("abacus", _set("denizens", 0, "article", "teh"), "denizens[0].article", "'an'"),
    ("abacus", _set("locations", 0, "pronouns", "zie"), "locations[0].pronouns", "'she'"),
    ("wolden", _set("pregens", 0, "pronouns", "zie"), "pregens[0].pronouns", "'she'"),
    ("wolden", _set("enemies", 0, "prose", ""), "enemies[0].prose", "at least 1"),
    ("feat", _set("cast", 0, "pronouns", "zie"), "cast[0].pronouns", "'she'"),
    ("lots", _set("pregens", 0, "pronouns", "zie"), "pregens[0].pronouns", "'she'"),
    ("wolden", _enemy_action, "enemies[0].actions[0].text", "unknown placeholder {foe.their}"),
    ("abacus", _scene(1, "location", "nowhere"), "scenes[1].location", "nowhere"),
    ("abacus", _scene(0, "title", 7), "scenes[0].title", "string"),
    ("wolden", _scene(1, "encounter", "nowhere"), "scenes[1].encounter", "nowhere"),
    ("wolden", _enemy_harm, "enemies[0].harm", "greater than or equal"),
    ("feat", _scene(0, "exits", ["nowhere"]), "scenes[0].exits[0]", "nowhere"),
    ("feat", _cast_spirit, "cast[0].spirit", "integer"),
    ("lots", _scene(0, "enters", ["Nobody"]), "scenes[0].enters[0]", "Nobody"),
    ("lots", _scene(0, "id", "Not A Slug"), "scenes[0].id", "pattern"),
]


def _broken(tmp_path: Path, source: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = read_yaml(source)[0]  # YAML 1.2, so an Abacus `on:` stays a key
    change(data)
    # in a folder named as the original's, so a file that names no ruleset is still found
    folder = tmp_path / source.parent.name
    folder.mkdir(exist_ok=True)
    path = folder / source.name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _named_at_its_line(problems: list[Problem], path: Path, field: str, word: str) -> Problem:
    found = next((p for p in errors(problems) if p.field == field), None)
    assert found is not None, [str(p) for p in problems]
    assert found.file == str(path) and word in found.message
    assert found.line is not None
    written = path.read_text(encoding="utf-8").splitlines()[found.line - 1]
    last = field.rsplit(".", 1)[-1].split("[")[0]
    assert last in written or written.lstrip().startswith("- "), (found, written)
    return found


@pytest.mark.parametrize(("ruleset", "change", "field", "word"), BROKEN,
                         ids=[f"{r}-{f}" for r, _, f, _ in BROKEN])
def test_a_broken_file_is_reported_with_file_line_and_field(tmp_path: Path, ruleset: str,
                                                             change: Callable[[dict[str, Any]], None],
                                                             field: str, word: str) -> None:
    path = _broken(tmp_path, _bundled(ruleset), change)
    _named_at_its_line(format_for(ruleset).lint(path), path, field, word)
    _named_at_its_line(check_file(path), path, field, word)
    with pytest.raises(Exception, match=word):
        format_for(ruleset).load(path)


def test_a_broken_cults_file_is_reported_with_file_line_and_field(tmp_path: Path) -> None:
    path = _broken(tmp_path, BUNDLED / "wolden" / "cults.yaml", _cult_gifts)
    _named_at_its_line(check_file(path), path, "cults[0].gifts", "at least")


def test_a_cults_file_is_known_by_its_shape_too(tmp_path: Path) -> None:
    """Cult files written before `kind: cults` still lint as cult files, as play reads them."""
    def unmarked(data: dict[str, Any]) -> None:
        del data["kind"]
    path = _broken(tmp_path, BUNDLED / "wolden" / "cults.yaml", unmarked)
    assert check_file(path) == []


def test_a_scenario_naming_a_cult_nobody_holds(tmp_path: Path) -> None:
    path = _broken(tmp_path, _bundled("wolden"), lambda data: data["cults"].append("the-lost"))
    problem = _named_at_its_line(check_file(path), path, "cults[2]", "the-lost")
    assert problem.severity == Severity.ERROR


def test_every_fault_is_reported_not_only_the_first(tmp_path: Path) -> None:
    def two(data: dict[str, Any]) -> None:
        data["scenes"][0]["exits"] = ["nowhere"]
        data["scenes"][1]["enters"] = ["Nobody"]
    path = _broken(tmp_path, _bundled("feat"), two)
    # (Heroes of the Fall's linter also finds the scenes the broken exit leaves unreachable)
    assert {p.field for p in check_file(path)} >= {"scenes[0].exits[0]", "scenes[1].enters[0]"}


# -- a fifth ruleset from outside: found through the registry alone ----------------------

QUILL = '''
"""A story format of a ruleset that is no part of Wyrd."""
from pathlib import Path
from pydantic import BaseModel, ConfigDict
from wyrd.stories.formats import StoryInfo
from wyrd.stories.modelformat import ModelFormat
__all__ = ["FORMAT"]

class Tale(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = "quill"
    id: str
    title: str
    premise: str = ""
    def faults(self):
        return [(("title",), "a title in capitals")] if self.title.isupper() else []

class QuillFormat(ModelFormat[Tale]):
    ruleset = "quill"
    folder = "quill"
    model = Tale
    bundled = Path(__file__).parent
    def faults(self, found):
        return found.faults()
    def entry(self, found, path, folder):
        return StoryInfo(id=found.id, title=found.title, path=path, folder=folder, ruleset=self.ruleset)

FORMAT = QuillFormat()
'''


@pytest.fixture
def quill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    package = tmp_path / "pkg"
    (package / "quill").mkdir(parents=True)
    (package / "quill_format.py").write_text(textwrap.dedent(QUILL), encoding="utf-8")
    (package / "quill" / "a-tale.yaml").write_text("ruleset: quill\nid: a-tale\ntitle: A Tale\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.setitem(registry._REGISTRY, "quill", Ruleset(id="quill", name="Quill", seed="-", rules="-",
                                                             kit="-", stories="quill_format"))
    yield package
    sys.modules.pop("quill_format", None)


def test_a_fifth_ruleset_s_format_is_found_through_the_registry(quill: Path, tmp_path: Path) -> None:
    assert format_for("quill").ruleset == "quill"
    assert "quill" in [f.ruleset for f in formats()]
    listed = {i.id: i.ruleset for i in discover([])}
    assert listed["a-tale"] == "quill" and listed["hollow-fair"] == "abacus"
    assert story_ruleset("a-tale", []) == "quill"
    loud = tmp_path / "loud.yaml"
    loud.write_text("ruleset: quill\nid: loud\ntitle: LOUD\n", encoding="utf-8")
    assert [(p.line, p.field) for p in check_file(loud)] == [(3, "title")]


def test_a_wolden_pregen_the_creation_rules_refuse(tmp_path: Path) -> None:
    def strong(data: dict[str, Any]) -> None:
        data["pregens"][0]["might"] = 9
    path = _broken(tmp_path, _bundled("wolden"), strong)
    _named_at_its_line(check_file(path), path, "pregens[0]", "")


PLAYED: dict[str, type[BaseModel]] = {"wolden": WoldenScenario, "feat": FeatStory, "lots": LotsScenario}


@pytest.mark.parametrize("ruleset", sorted(PLAYED))
def test_play_still_refuses_at_the_first_fault(ruleset: str) -> None:
    """Without the linter's context a scenario that does not hold together is refused, as play reads it."""
    data = read_yaml(_bundled(ruleset))[0]
    data["scenes"].append(dict(data["scenes"][0]))
    with pytest.raises(ValidationError, match="scene"):
        PLAYED[ruleset].model_validate(data)
