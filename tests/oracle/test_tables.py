"""Tables: the YAML format is checked on load (errors name file, line and field), rolls land
on exactly one row, nested tables fill {roll}, and deck mode never repeats a row too soon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wyrd.oracle.tables import (
    ContentError,
    Problem,
    Table,
    UnknownTable,
    bundled_tables,
    load_tables,
    make_table,
    parse_tables,
    roll,
)
from wyrd.rules.dice import Dice


def problems(tmp_path: Path, text: str, name: str = "t.yaml") -> list[Problem]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_tables([path])
    return caught.value.problems


def only(found: list[Problem]) -> Problem:
    assert len(found) == 1, found
    return found[0]


D6 = """\
id: test/d6
title: Test
dice: d6
rows:
"""


def test_a_gap_names_file_line_and_field(tmp_path: Path) -> None:
    p = only(problems(tmp_path, D6 + "  - {range: 1-3, text: a}\n  - {roll: 6, text: b}\n"))
    assert p.file.endswith("t.yaml") and p.line == 5 and p.field == "rows"
    assert "no row covers 4-5" in p.message and "d6 rolls 1 to 6" in p.message
    assert str(p).startswith(f"{p.file}:5: rows: ")


def test_an_overlap_names_the_row_that_overlaps(tmp_path: Path) -> None:
    p = only(problems(tmp_path, D6 + "  - {range: 1-4, text: a}\n  - {range: 4-6, text: b}\n"))
    assert (p.line, p.field) == (6, "rows[1].range")
    assert "overlaps row 0 (1-4) at 4" in p.message


def test_a_row_out_of_range_is_refused_not_clamped(tmp_path: Path) -> None:
    found = problems(tmp_path, D6 + "  - {range: 1-6, text: a}\n  - roll: 7\n    text: b\n")
    p = only(found)
    assert (p.line, p.field) == (6, "rows[1].roll")
    assert "7 is out of range: d6 rolls 1 to 6" in p.message


def test_a_d66_range_must_hold_a_d66_roll(tmp_path: Path) -> None:
    text = "id: t/d66\ntitle: T\ndice: d66\nrows:\n  - {range: 11-66, text: a}\n  - {range: 17-20, text: b}\n"
    p = only(problems(tmp_path, text))
    assert p.field == "rows[1].range" and "no roll of d66 lands in 17-20" in p.message


def test_an_unknown_table_reference_is_an_error(tmp_path: Path) -> None:
    p = only(problems(tmp_path, D6 + "  - {range: 1-6, table: test/nowhere}\n"))
    assert (p.line, p.field) == (5, "rows[0].table")
    assert "no table 'test/nowhere' is loaded" in p.message


def test_tables_that_roll_on_each_other_in_a_loop_are_an_error(tmp_path: Path) -> None:
    text = """\
tables:
  - id: loop/a
    title: A
    dice: weights
    rows: [{table: loop/b}]
  - id: loop/b
    title: B
    dice: weights
    rows: [{table: loop/a}]
"""
    p = only(problems(tmp_path, text))
    assert "loop" in p.message and "loop/a -> loop/b -> loop/a" in p.message


@pytest.mark.parametrize(("row", "field", "words"), [
    ("  - {range: 1-6, weight: 2, text: a}", "rows[0].weight", "not a weight"),
    ("  - {range: 6-1, text: a}", "rows[0].range", "runs backwards"),
    ("  - {range: one, text: a}", "rows[0].range", "is not a roll or a range"),
    ("  - {range: 1-6, roll: 3, text: a}", "rows[0]", "exactly one of range"),
    ("  - {range: 1-6}", "rows[0]", "needs text, a table"),
    ("  - {range: 1-6, text: 'a {BAD}'}", "rows[0].text", "stray '{'"),
    ("  - {range: 1-6, text: a, colour: red}", "rows[0].colour", "Extra inputs"),
])
def test_row_problems_point_at_the_row(tmp_path: Path, row: str, field: str, words: str) -> None:
    found = problems(tmp_path, D6 + row + "\n")
    assert any(p.field == field and words in p.message and p.line == 5 for p in found), found


def test_weight_problems_and_duplicate_keys(tmp_path: Path) -> None:
    weights = "id: w/x\ntitle: W\ndice: weights\nrows:\n  - a\n  - {weight: 0, text: b}\n  - {roll: 2, text: c}\n"
    found = problems(tmp_path, weights)
    assert {(p.field, p.line) for p in found} == {("rows[1].weight", 6), ("rows[2].roll", 7)}
    dup = problems(tmp_path, "id: w/x\ntitle: W\ntitle: again\ndice: weights\nrows: [a]\n", "dup.yaml")
    assert only(dup).field == "title" and only(dup).line == 3


def test_bad_dice_bad_ids_and_yaml_syntax(tmp_path: Path) -> None:
    assert "not dice notation" in only(problems(tmp_path, "id: x\ntitle: X\ndice: 3x6\nrows: [a]\n")).message
    assert only(problems(tmp_path, "id: Bad Id\ntitle: X\ndice: weights\nrows: [a]\n")).field == "id"
    p = only(problems(tmp_path, "id: x\ntitle: [unclosed\n"))
    assert p.field == "(yaml)" and p.line >= 2


def test_duplicate_table_ids_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("id: dup/x\ntitle: A\ndice: weights\nrows: [a]\n")
    (tmp_path / "b.yaml").write_text("id: dup/x\ntitle: B\ndice: weights\nrows: [b]\n")
    with pytest.raises(ContentError) as caught:
        load_tables([tmp_path])
    assert "also used at" in str(caught.value)


def test_every_problem_in_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text = D6 + "  - {range: 1-2, text: a}\n  - {range: 2-3, text: b}\n  - {roll: 9, text: c}\n"
    assert len(problems(tmp_path, text)) == 3  # overlap, out of range, gap


def test_a_user_folder_loads_over_the_bundled_tables(tmp_path: Path) -> None:
    mine = "id: twist/threat\ntitle: Mine\ndice: weights\nrows: ['{character} sees it.']\n"
    (tmp_path / "mine.yaml").write_text(mine)
    tables = load_tables([tmp_path], base=bundled_tables())
    assert tables["twist/threat"].title == "Mine" and "twist/eerie" in tables
    assert roll("twist/threat", Dice.seeded(1), {"character": "Ada"}, tables=tables).text == "Ada sees it."


def test_rolls_read_ranges_d66_and_sums() -> None:
    d66 = make_table("t/d66", "T", "d66", [{"range": "11-36", "text": "low"}, {"range": "41-66", "text": "high"}])
    result = roll(d66, Dice.scripted([3, 5]), tables={})
    assert (result.value, result.row, result.faces, result.text) == (35, "11-36", (3, 5), "Low")
    two = make_table("t/2d6", "T", "2d6", [{"range": "2-6", "text": "a"}, {"roll": 7, "text": "b"},
                                           {"range": "8-12", "text": "c"}])
    assert two.exact() == {"2-6": pytest.approx(15 / 36), "7": pytest.approx(6 / 36), "8-12": pytest.approx(15 / 36)}
    assert roll(two, Dice.scripted([3, 4]), tables={}).row == "7"


def test_nested_tables_fill_roll_and_keep_the_inner_result() -> None:
    inner = make_table("t/inner", "I", "weights", [{"text": "the old mill"}])
    outer = make_table("t/outer", "O", "weights", [{"table": "t/inner", "text": "At {roll}, {character} waits."}])
    result = roll(outer, Dice.scripted([1, 1]), {"character": "Bo"}, tables={t.id: t for t in (inner, outer)})
    assert result.text == "At the old mill, Bo waits."
    assert [n.table for n in result.nested] == ["t/inner"]
    with pytest.raises(UnknownTable):
        roll(outer, Dice.scripted([1]), tables={})


def test_missing_placeholders_fall_back_cleanly() -> None:
    table = make_table("t/p", "P", "weights", [{"text": "{denizen|A tinker} meets {character} at {unheard_of}."}])
    assert roll(table, Dice.scripted([1]), tables={}).text == "A tinker meets someone at something."


def test_a_table_made_in_code_goes_through_the_same_checks() -> None:
    with pytest.raises(ContentError) as caught:
        make_table("t/bad", "B", "d6", [{"range": "1-5", "text": "a"}], file="<story>")
    assert caught.value.problems[0].file == "<story>" and "no row covers 6" in str(caught.value)


def test_parse_tables_reads_one_or_many() -> None:
    assert [t.id for t in parse_tables("id: a/b\ntitle: T\ndice: weights\nrows: [x]\n", "x.yaml")] == ["a/b"]


def _ids(table: Table) -> list[str]:
    return [r.id for r in table.rows]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), which=st.sampled_from(["place/location", "twist/tie", "narrate/effort",
                                                          "meaning/action"]))
def test_deck_mode_never_repeats_until_the_table_is_used_up(seed: int, which: str) -> None:
    table = bundled_tables()[which]
    dice = Dice.seeded(seed)
    deck: dict[str, list[str]] = {}
    first = [roll(table, dice, deck_state=deck).row for _ in range(len(table.rows))]
    assert sorted(first) == sorted(_ids(table))  # every row once, no repeats
    assert json.loads(json.dumps(deck)) == deck  # plain JSON
    again = roll(table, dice, deck_state=deck)  # exhausted: a fresh deck
    assert deck[table.id] == [again.row]


def test_deck_state_is_passed_back_and_checked() -> None:
    table = make_table("t/deck", "D", "d6", [{"range": "1-3", "text": "a"}, {"range": "4-6", "text": "b"}])
    deck = {"t/deck": ["1-3"]}
    result = roll(table, Dice.scripted([3]), deck_state=deck, tables={})
    assert result.row == "4-6" and result.deck and deck == {"t/deck": ["1-3", "4-6"]}
    with pytest.raises(ValueError, match="must be a list"):
        roll(table, Dice.scripted([1]), deck_state={"t/deck": "oops"}, tables={})  # type: ignore[dict-item]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_any_roll_on_any_bundled_table_lands_on_a_row_with_clean_text(seed: int) -> None:
    tables = bundled_tables()
    dice = Dice.seeded(seed)
    for table in tables.values():
        result = roll(table, dice, tables=tables)
        assert result.row in _ids(table)
        assert "{" not in result.text and "}" not in result.text and result.text.strip()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, c in zip("abcdefghijklmn", "bcdefghijklmno", strict=False)), "aliases"),
        ("x: " + "[" * 300 + "]" * 300 + "\n", "deeper"),
        ("id: big\nrows: [" + "'" + "x" * (1 << 20) + "']\n", "larger"),
    ],
    ids=["alias-bomb", "deep", "huge"],
)
def test_hostile_table_files_are_refused_quickly(text: str, says: str) -> None:
    """Issue: table files from unknown sources get a clear error, refused from the parser's
    events before anything is built (so an alias bomb never expands)."""
    from wyrd.oracle.yamlfile import ContentError, load_yaml

    with pytest.raises(ContentError) as caught:
        load_yaml(text, "hostile.yaml")
    assert says in str(caught.value)
    assert "hostile.yaml" in str(caught.value)
