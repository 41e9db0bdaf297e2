"""A ruleset's narration tables and prompts come from its registry entry (issue 15, point 1).

Each :class:`~wyrd.rulesets.Ruleset` names its own table files (``tables``) and its own
prompt folder (``prompts``) as package resources; the oracle loads the shared tables
plus every registered ruleset's, and the prompt set is the shared prompts plus every
registered ruleset's. A fifth ruleset, written here as a package of its own and
registered without any edit to Wyrd, brings both.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import wyrd.rulesets as registry
from wyrd.oracle import tablecache
from wyrd.oracle.narrators.base import NarrationRequest
from wyrd.oracle.narrators.table import TableNarrator
from wyrd.oracle.tables import SHARED_TABLES, ContentError, bundled_tables, roll, ruleset_tables
from wyrd.prompts import PROMPTS_DIR, PromptError, prompt_set, render
from wyrd.rules.dice import Dice
from wyrd.rulesets import Ruleset, find_ruleset, resource, rulesets

ORACLE_TABLES = Path(resource("wyrd.oracle:tables").locate())  # type: ignore[arg-type]

TALLY_TABLES = """\
tables:
  - id: tally/mark
    title: A mark is made
    dice: d6
    rows:
      - range: 1-3
        text: "{who} scratches a line in the wood."
      - range: 4-6
        text: "{who} cuts a notch, deep and neat."
"""

TALLY_PROMPT = """\
id: tally/marks
description: A mark on the tally stick.
moments: [tally/mark]
template: |-
  Settled facts: {facts}
  Tell the mark in one sentence.
"""


def clear_caches() -> None:
    bundled_tables.cache_clear()
    prompt_set.cache_clear()


@pytest.fixture
def fifth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package ``wyrd_tally`` on the path with a table file and a prompt folder, registered as ``tally``.

    The registry and the loaded tables and prompts are put back as they were afterwards.
    """
    package = tmp_path / "wyrd_tally"
    (package / "prompts").mkdir(parents=True)
    (package / "__init__.py").write_text('"""A fifth ruleset\'s content."""\n', encoding="utf-8")
    (package / "tables.yaml").write_text(TALLY_TABLES, encoding="utf-8")
    (package / "prompts" / "marks.yaml").write_text(TALLY_PROMPT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    rulesets()  # scanned first, so the copy holds every installed ruleset
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register(Ruleset(id="tally", name="Tally", seed="none", rules="json", kit="json",
                              tables=("wyrd_tally:tables.yaml",), prompts="wyrd_tally:prompts"))
    clear_caches()
    yield package
    monkeypatch.undo()
    sys.modules.pop("wyrd_tally", None)
    clear_caches()


def test_every_bundled_table_file_is_shared_or_one_rulesets_own() -> None:
    """No table file is left out of the narration, and none is loaded for two rulesets."""
    named = [resource(name).label for r in rulesets() for name in r.tables]
    shared = [resource(name).label for name in SHARED_TABLES]
    on_disk = sorted(f"wyrd/oracle/tables/{p.name}" for p in ORACLE_TABLES.glob("*.yaml"))
    assert sorted(named + shared) == on_disk


@pytest.mark.parametrize(("ident", "prefixes"), [
    ("abacus", {"narrate"}), ("wolden", {"wolden"}), ("feat", {"feat"}), ("lots", {"lots"}),
])
def test_each_bundled_ruleset_names_the_tables_of_its_own_ids(ident: str, prefixes: set[str]) -> None:
    mine = ruleset_tables([find_ruleset(ident)])
    shared = ruleset_tables([])
    assert {t.split("/")[0] for t in mine if t not in shared} == prefixes
    assert {t.split("/")[0] for t in shared} == {"meaning", "place", "twist"}


def test_the_shared_tables_and_every_rulesets_load_in_name_order() -> None:
    """The order the rulesets are registered in never changes the loaded set (nor which row a roll picks)."""
    forwards = ruleset_tables(rulesets())
    backwards = ruleset_tables(list(reversed(rulesets())))
    assert list(forwards) == list(backwards) == list(bundled_tables())
    files = [forwards[t].file for t in forwards]
    assert files == sorted(files)


@pytest.mark.parametrize("ident", ["wolden", "feat", "lots"])
def test_each_rulesets_prompts_come_from_the_folder_it_names(ident: str) -> None:
    folder = Path(resource(str(find_ruleset(ident).prompts)).locate())  # type: ignore[arg-type]
    assert folder == PROMPTS_DIR / ident
    ids = {f"{ident}/{p.stem}" for p in folder.glob("*.yaml")}
    assert ids and ids <= set(prompt_set().prompts)


def test_the_abacus_prompts_are_the_shared_ones() -> None:
    """The Abacus's moments (MomentKind) are told by the files at the top of wyrd/prompts, ids unchanged."""
    assert find_ruleset("abacus").prompts is None
    top = {p.stem for p in PROMPTS_DIR.glob("*.yaml")} - {"system"}
    assert top <= set(prompt_set().prompts)
    assert prompt_set().for_moment("challenge_outcome").id == "challenge_outcome"


def test_a_fifth_rulesets_table_is_rolled_by_id(fifth: Path) -> None:
    """Issue 15 point 1: an installed ruleset brings its own narration tables, with no edit to Wyrd."""
    tables = bundled_tables()
    assert "tally/mark" in tables and tables["tally/mark"].file == "wyrd_tally/tables.yaml"
    assert "lots/check/success" in tables and "meaning/action" in tables
    result = roll("tally/mark", Dice.seeded("tally"), {"who": "Bo"})
    assert result.table == "tally/mark" and result.text.startswith("Bo ")
    told = TableNarrator().narrate(NarrationRequest(moment="tally/mark", told_by=["tally/none", "tally/mark"],
                                                    values={"who": "Ama"}), Dice.seeded("tally"))
    assert told.text.startswith("Ama ") and told.trace[0].startswith("tally/mark#")


def test_a_fifth_rulesets_prompt_is_found_for_its_moment(fifth: Path) -> None:
    spec = prompt_set().for_moment("tally/mark")
    assert spec.id == "tally/marks"
    assert render(spec, {"facts": "{}"})[1].startswith("Settled facts: {}")
    assert prompt_set().for_moment("lots/blow").id == "lots/fight"  # the bundled ones are still there


def test_a_broken_table_of_a_registered_ruleset_names_file_line_and_field(fifth: Path) -> None:
    (fifth / "tables.yaml").write_text(TALLY_TABLES.replace("range: 4-6", "range: 4-7"), encoding="utf-8")
    with pytest.raises(ContentError) as refused:
        bundled_tables()
    message = str(refused.value)
    assert "wyrd_tally/tables.yaml:8: tables[0].rows[1].range" in message, message


def test_a_broken_table_is_named_the_same_while_a_check_is_kept(fifth: Path, tmp_path: Path) -> None:
    """Issue 21, point 2: a check kept from an earlier start is never taken for a file that has changed since."""
    tablecache.keep_in(lambda: tmp_path / "cache")
    try:
        assert "tally/mark" in bundled_tables()
        assert list((tmp_path / "cache").glob("tables-*.json"))
        (fifth / "tables.yaml").write_text(TALLY_TABLES.replace("range: 4-6", "range: 4-7"), encoding="utf-8")
        clear_caches()
        with pytest.raises(ContentError) as refused:
            bundled_tables()
        assert "wyrd_tally/tables.yaml:8: tables[0].rows[1].range" in str(refused.value)
    finally:
        tablecache.keep_in(None)


def test_a_missing_table_file_names_the_ruleset(fifth: Path) -> None:
    (fifth / "tables.yaml").unlink()
    with pytest.raises(ContentError, match=r"wyrd_tally/tables.yaml:0: tables: ruleset tally names the table file"):
        bundled_tables()


def test_a_broken_prompt_of_a_registered_ruleset_names_its_file(fifth: Path) -> None:
    (fifth / "prompts" / "marks.yaml").write_text(TALLY_PROMPT.replace("{facts}", "{nothing}"), encoding="utf-8")
    with pytest.raises(PromptError) as refused:
        prompt_set()
    assert str(fifth / "prompts" / "marks.yaml") in str(refused.value)
    assert "unknown placeholders" in str(refused.value)


def test_a_prompt_folder_that_is_not_there_names_the_ruleset(fifth: Path) -> None:
    (fifth / "prompts" / "marks.yaml").unlink()
    (fifth / "prompts").rmdir()
    with pytest.raises(PromptError, match="ruleset tally: prompts: 'wyrd_tally:prompts' is not a folder"):
        prompt_set()


def test_a_resource_must_be_package_and_path() -> None:
    assert resource("wyrd.prompts:lots").label == "wyrd/prompts/lots"
    for bad in ("wyrd.prompts", ":lots", "wyrd.prompts:"):
        with pytest.raises(ValueError, match="package:path"):
            resource(bad)
