"""The YAML limits every content reader shares (stories/yamlguard.py).

Content may come from anyone: a file nested too deep or full of aliases is refused
before anything is built, whichever reader takes it (the story loader, the
oracle's tables, the other rulesets' scenarios, the prompts).
"""

from __future__ import annotations

import pytest
import yaml

from wyrd.stories.feat import FeatStoryError, load_feat_story
from wyrd.stories.yamlguard import MAX_ALIASES, MAX_BYTES, MAX_DEPTH, safe_load


def test_safe_load_reads_plain_yaml() -> None:
    assert safe_load("a: [1, 2]\nb: {c: text}\n") == {"a": [1, 2], "b": {"c": "text"}}


def test_too_deep_is_refused_with_its_line() -> None:
    text = "x: 1\ny: 2\na: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    with pytest.raises(yaml.YAMLError, match=rf"line 3: refused: nesting deeper than {MAX_DEPTH}"):
        safe_load(text)


def test_too_large_is_refused() -> None:
    with pytest.raises(yaml.YAMLError, match="refused: larger than"):
        safe_load("a: " + "x" * MAX_BYTES + "\n")


def test_too_many_aliases_are_refused() -> None:
    text = "a: &x 1\nb: [" + ", ".join(["*x"] * (MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(yaml.YAMLError, match=f"more than {MAX_ALIASES} aliases"):
        safe_load(text)


def test_a_scenario_reader_refuses_a_hostile_file(tmp_path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("id: x\nscenes: " + "[" * 200 + "]" * 200 + "\n", encoding="utf-8")
    with pytest.raises(FeatStoryError, match="nesting deeper"):
        load_feat_story(path)
