"""Filling texts: placeholders, fallbacks and escapes never raise; names read well mid-sentence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wyrd.oracle.text import Layered, check_template, fill, join_names, placeholders, the_name


def test_placeholders_fill_and_fall_back() -> None:
    assert fill("{character} meets {denizen}.", {"character": "Ada"}) == "Ada meets a stranger."
    assert fill("{denizen|the verger} waits", {}) == "The verger waits"
    assert fill("{denizen|the verger} waits", {"denizen": "  "}) == "The verger waits"
    assert fill("{no_such_thing} happens") == "Something happens"
    assert fill("{party}", {"party": ["Ada", "Bo", "Cy"]}) == "Ada, Bo and Cy"
    assert fill("{{literal}} {character}", {"character": "Bo"}) == "{literal} Bo"
    assert fill("{character} waits", {"character": "ada"}, capital=False) == "ada waits"


def test_check_template_finds_stray_braces() -> None:
    assert check_template("{character|x} {{ok}}") is None
    assert check_template("a {CHaracter}") is not None
    assert check_template("a {Character}") is None  # capitalised at the start of a sentence
    assert check_template("{lead.nope}") is not None
    assert check_template("a } b") is not None
    assert placeholders("{a} and {b|c} {{d}}") == ["a", "b"]


@given(st.text(max_size=60), st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), st.text(max_size=10)))
def test_fill_never_raises(template: str, context: dict[str, str]) -> None:
    assert isinstance(fill(template, context), str)


@pytest.mark.parametrize(("name", "inside"), [
    ("Locked gate", "the locked gate"),
    ("Night Hound", "Night Hound"),  # Issue 18, point 7: a capitalised title is a proper name
    ("The Barrow Door", "the Barrow Door"),
    ("a mob", "a mob"),
    ("Squire Hale's knife", "Squire Hale's knife"),
    ("Gate", "the gate"),
    ("UFO", "the UFO"),
    ("", ""),
])
def test_the_name(name: str, inside: str) -> None:
    assert the_name(name) == inside


def test_join_and_layered() -> None:
    assert join_names([]) == "" and join_names(["Ada"]) == "Ada" and join_names(["Ada", "Bo"]) == "Ada and Bo"
    layered = Layered({"a": 1}, {"a": 2, "b": 3})
    assert layered["a"] == 1 and layered["b"] == 3 and sorted(layered) == ["a", "b"] and len(layered) == 2
    assert layered.get("zz") is None
