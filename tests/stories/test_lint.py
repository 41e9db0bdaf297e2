"""The story linter (stories/abacus/lint.py): one small broken story per check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wyrd.stories.abacus.lint import check_file, errors, lint
from wyrd.stories.abacus.schema import Story
from wyrd.stories.loader import Problem, Severity

FIXTURES = Path(__file__).resolve().parent / "fixtures"
Data = Callable[[], dict[str, Any]]
Found = list[tuple[str, str, str]]


def found(data: dict[str, Any]) -> Found:
    """(severity, field, message) of every problem in ``data``."""
    return [(p.severity.value, p.field, p.message) for p in lint(Story.model_validate(data))]


def has(problems: Found, severity: str, field: str, text: str) -> bool:
    return any(s == severity and f == field and text in m for s, f, m in problems)


def test_tiny_story_is_clean(story_data: Data) -> None:
    assert found(story_data()) == []


# -- duplicate ids -------------------------------------------------------------------


def test_duplicate_scene_id(story_data: Data) -> None:
    data = story_data()
    data["scenes"][1]["id"] = "start"
    assert has(found(data), "error", "scenes[1]", "scene 'start' is already used at scenes[0]")


def test_challenge_ids_are_unique_across_the_story(story_data: Data) -> None:
    data = story_data()
    data["scenes"][0]["challenges"][2]["id"] = "ghost-wail"
    assert has(found(data), "error", "scenes[0].challenges[2]", "challenge 'ghost-wail' is already used at "
                                                                "denizens[0].challenges[0]")


def test_twist_ids_are_unique_across_categories(story_data: Data) -> None:
    data = story_data()
    data["twists"]["eerie"][0]["id"] = "threat-1"
    assert has(found(data), "error", "twists.eerie[0]", "twist 'threat-1' is already used")


@pytest.mark.parametrize(("kind", "field"), [
    ("locations", "locations[1]"), ("denizens", "denizens[1]"), ("clocks", "clocks[1]"),
    ("counters", "counters[1]"), ("stage_rules", "stage_rules[1]"),
])
def test_other_duplicates(story_data: Data, kind: str, field: str) -> None:
    data = story_data()
    data[kind].append(dict(data[kind][0]))
    assert has(found(data), "error", field, "is already used")


def test_duplicate_pregen_names(story_data: Data) -> None:
    data = story_data()
    data["pregens"][1]["name"] = "ada"
    assert has(found(data), "error", "pregens[1].name", "pregen name 'ada' is already used")


def test_duplicate_postscript_ids(story_data: Data) -> None:
    data = story_data()
    data["postscripts"]["freed"][0]["id"] = "held-1"
    assert has(found(data), "error", "postscripts.freed[0]", "postscript 'held-1' is already used")


# -- dangling references -------------------------------------------------------------


@pytest.mark.parametrize(("path", "value", "field", "message"), [
    (("scenes", 0, "location"), "cellar", "scenes[0].location", "names no known location 'cellar'"),
    (("scenes", 0, "challenges", 0), "ghost-sob", "scenes[0].challenges[0]", "no known challenge 'ghost-sob'"),
    (("scenes", 0, "stage_rules", 0), "hot", "scenes[0].stage_rules[0]", "no known stage rule 'hot'"),
    (("scenes", 0, "next", 1, "scene"), "attic", "scenes[0].next[1].scene", "no known scene 'attic'"),
    (("scenes", 0, "next", 0, "when"), {"failed": "nope"}, "scenes[0].next[0].when", "no known challenge 'nope'"),
    (("scenes", 0, "next", 0, "when"), {"clock_at_least": {"clock": "day", "value": 1}},
     "scenes[0].next[0].when", "no known clock 'day'"),
    (("scenes", 0, "next", 0, "when"), {"counter_at_least": {"counter": "fear", "value": 1}},
     "scenes[0].next[0].when", "no known counter 'fear'"),
    (("denizens", 0, "challenges", 0, "on_fail", 1, "counter"), "fear",
     "denizens[0].challenges[0].on_fail[1].counter", "no known counter 'fear'"),
    (("clocks", 0, "thresholds", 0, "effects", 0, "challenge"), "ghost-sob",
     "clocks[0].thresholds[0].effects[0].challenge", "no known challenge 'ghost-sob'"),
    (("stage_rules", 0, "trigger", "at_or_under"), "fear", "stage_rules[0].trigger.at_or_under",
     "no known counter 'fear'"),
    (("stage_rules", 0, "trigger", "match"), {"denizen": "poltergeist"}, "stage_rules[0].trigger.match.denizen",
     "no known denizen 'poltergeist'"),
    (("stage_rules", 0, "effects", 0, "match"), {"challenge": "nope"}, "stage_rules[0].effects[0].match.challenge",
     "no known challenge 'nope'"),
    (("stage_rules", 0, "effects", 0, "clock"), "day", "stage_rules[0].effects[0].clock", "no known clock 'day'"),
    (("denizens", 0, "challenges", 1, "after"), ["ghost-sob"], "denizens[0].challenges[1].after[0]",
     "no known challenge 'ghost-sob'"),
    (("denizens", 0, "challenges", 1, "after"), ["ghost-grip"], "denizens[0].challenges[1].after[0]",
     "cannot follow itself"),
    (("denizens", 0, "challenges", 0, "denizen"), "banshee", "denizens[0].challenges[0].denizen",
     "sits under denizen 'ghost' but names 'banshee'"),
    (("scenes", 0, "challenges", 2, "denizen"), "banshee", "scenes[0].challenges[2].denizen",
     "no known denizen 'banshee'"),
    (("pregens", 0, "connection", "to"), "cora", "pregens[0].connection.to", "no known pregen 'cora'"),
])
def test_dangling_ids(story_data: Data, path: tuple[Any, ...], value: Any, field: str, message: str) -> None:
    data = story_data()
    node: Any = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    assert has(found(data), "error", field, message), found(data)


@pytest.mark.parametrize(("do", "needs"), [("counter", "counter"), ("clock", "clock"), ("place", "challenge")])
def test_effects_that_need_a_target(story_data: Data, do: str, needs: str) -> None:
    data = story_data()
    data["stage_rules"][0]["effects"] = [{"do": do}]
    assert has(found(data), "error", "stage_rules[0].effects[0]", f"a {do} effect needs {needs}: ID")


def test_complication_references(story_data: Data) -> None:
    data = {**story_data(), "complications": [{"id": "c", "text": "C", "challenges": ["nope"],
                                               "stage_rules": ["nada"]}]}
    problems = found(data)
    assert has(problems, "error", "complications[0].challenges[0]", "no known challenge 'nope'")
    assert has(problems, "error", "complications[0].stage_rules[0]", "no known stage rule 'nada'")


# -- flow ----------------------------------------------------------------------------


def test_unreachable_scene_is_a_warning(story_data: Data) -> None:
    data = story_data()
    data["scenes"].append({"id": "attic", "title": "Attic", "location": "hall", "finale": True})
    assert has(found(data), "warning", "scenes[2]", "scene attic cannot be reached from start")


def test_a_scene_with_no_way_out(story_data: Data) -> None:
    data = story_data()
    data["scenes"][0]["next"] = []
    problems = found(data)
    assert has(problems, "error", "scenes[0].next", "scene start is not a finale and has no way out")
    assert has(problems, "warning", "scenes[1]", "cannot be reached")


def test_no_finale(story_data: Data) -> None:
    data = story_data()
    data["scenes"][1]["finale"] = False
    data["scenes"][1]["next"] = [{"scene": "start"}]
    assert has(found(data), "error", "scenes", "no scene is marked finale: true")


def test_no_scenes(story_data: Data) -> None:
    data = story_data()
    data["scenes"] = []
    assert has(found(data), "error", "scenes", "a story needs scenes")


def test_freeform_needs_pools(story_data: Data) -> None:
    data = {**story_data(), "freeform": True, "scenes": [], "locations": []}
    problems = found(data)
    assert has(problems, "error", "locations", "a freeform setting needs a pool of locations")
    assert has(problems, "error", "complications", "a freeform setting needs a pool of complications")
    assert not any(f == "scenes" for _, f, _ in problems)


def test_a_challenge_never_placed(story_data: Data) -> None:
    data = story_data()
    data["scenes"][0]["challenges"].remove("ghost-grip")
    assert has(found(data), "warning", "denizens[0].challenges[1]", "ghost-grip is never placed")


def test_following_a_challenge_the_scene_does_not_place(story_data: Data) -> None:
    data = story_data()
    data["scenes"][0]["challenges"].remove("ghost-wail")
    data["clocks"] = []  # so ghost-wail is placed nowhere else either
    data["scenes"][0]["next"] = [{"scene": "end"}]
    problems = found(data)
    assert has(problems, "warning", "scenes[0].challenges[0]", "ghost-grip follows ghost-wail, which this scene")


# -- twist tables and postscripts -----------------------------------------------------


@pytest.mark.parametrize("category", ["threat", "eerie", "personal", "intrusion"])
def test_missing_twist_categories(story_data: Data, category: str) -> None:
    data = story_data()
    data["twists"][category] = []
    assert has(found(data), "error", f"twists.{category}", f"the {category} twist table is empty")


def test_friendly_twists_are_optional(story_data: Data) -> None:
    data = story_data()
    data["twists"]["friendly"] = []
    assert found(data) == []


def test_twist_weights(story_data: Data) -> None:
    data = story_data()
    data["twists"]["weights"] = {"threat": 0, "eerie": 0, "personal": 0, "intrusion": 0, "friendly": 0}
    problems = found(data)
    assert has(problems, "error", "twists.weights", "a Wyrd 6 needs a category")
    assert has(problems, "error", "twists.weights", "a Wyrd 1-2 needs intrusion or friendly")


@pytest.mark.parametrize(("text", "message"), [
    ("{who} trips.", "unknown placeholder {who}"),
    ("{name trips.", "unbalanced { or }"),
    ("{0} trips.", "unknown placeholder {0}"),
    ("{name.nope} trips.", "unknown placeholder {name.nope}"),
])
def test_placeholders(story_data: Data, text: str, message: str) -> None:
    data = story_data()
    data["twists"]["eerie"][0]["text"] = text
    data["postscripts"]["held"][0]["text"] = text
    problems = found(data)
    assert has(problems, "error", "twists.eerie[0].text", message)
    assert has(problems, "error", "postscripts.held[0].text", message)


def test_placeholder_forms_are_fine(story_data: Data) -> None:
    """Issue 18, point 7: a story's texts may use the grammar's forms of {name}."""
    data = story_data()
    data["twists"]["eerie"][0]["text"] = "{Name} loses {name.their} way and finds {name.themself} alone."
    assert not [p for p in found(data) if "placeholder" in p.message]


def test_braces_doubled_are_fine(story_data: Data) -> None:
    data = story_data()
    data["twists"]["eerie"][0]["text"] = "{{the}} {name}"
    assert found(data) == []


def test_missing_postscripts_are_warnings(story_data: Data) -> None:
    data = story_data()
    data["postscripts"]["defeated"] = []
    assert found(data) == [("warning", "postscripts.defeated", "no postscript for a character defeated")]


# -- pregens -------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "message"), [
    ({"body": 6}, "add up to 16; they must add up to 15"),
    ({"body": 10, "mind": 2, "soul": 3}, "each ability must be 3 to 9"),
    ({"wyrd": 2}, "at most 1 personal Wyrd"),
    ({"facets": {"mind": ["a", "b", "c"]}}, "3 Mind facets; each ability takes 2"),
    ({"connection": {"to": "ada"}}, "cannot take a connection to themself"),
])
def test_pregens_break_creation_rules(story_data: Data, change: dict[str, Any], message: str) -> None:
    data = story_data()
    data["pregens"][0].update(change)
    assert has(found(data), "error", "pregens[0]", message), found(data)


def test_player_range(story_data: Data) -> None:
    assert has(found({**story_data(), "players": {"min": 3, "max": 2}}), "error", "players", "min 3 is above max 2")


# -- values and consequences ---------------------------------------------------------


def test_a_challenge_no_party_could_overcome(story_data: Data) -> None:
    """Soul: Ada 5 + Bram 4 = 9, + 6 on the die, + 3 scene Wyrd (two present + 1) = 18."""
    data = story_data()
    data["denizens"][0]["challenges"][0]["value"] = 18
    assert found(data) == []
    data["denizens"][0]["challenges"][0]["value"] = 19
    assert found(data) == [("error", "denizens[0].challenges[0].value", "19 is beyond any party: 9 soul points "
                                                                       "(the pregens) + 6 on the die + 3 scene "
                                                                       "Wyrd = 18")]


def test_without_pregens_the_biggest_party_counts(story_data: Data) -> None:
    """Four characters at 9: 36 + 6 + 5 = 47."""
    data = {**story_data(), "pregens": []}
    data["denizens"][0]["challenges"][0]["value"] = 47
    assert found(data) == []
    data["denizens"][0]["challenges"][0]["value"] = 48
    assert has(found(data), "error", "denizens[0].challenges[0].value", "4 characters at 9")


def test_damage_as_the_only_consequence(story_data: Data) -> None:
    data = story_data()
    data["denizens"][0]["challenges"][1]["on_fail"] = [{"do": "damage", "n": 3}]
    assert found(data) == [("warning", "denizens[0].challenges[1]",
                            "failing ghost-grip only costs damage; seed 000 advises another consequence with it "
                            "(a counter, a clock, a Wyrd roll, a mark)")]


def test_the_default_consequence_is_damage_only(story_data: Data) -> None:
    data = story_data()
    del data["scenes"][0]["challenges"][2]["on_fail"]
    assert has(found(data), "warning", "scenes[0].challenges[2]", "the default, with on_fail left out")


def test_a_fail_rule_adds_a_consequence(story_data: Data) -> None:
    data = story_data()
    data["denizens"][0]["challenges"][1]["on_fail"] = [{"do": "damage", "n": 3}]
    data["stage_rules"].append({"id": "grip-counts", "name": "Grip", "trigger": {"on": "fail", "match":
                                {"denizen": "ghost"}}, "effects": [{"do": "counter", "counter": "dread"}]})
    assert found(data) == []


# -- positions, files ----------------------------------------------------------------


def test_problems_name_file_and_line() -> None:
    problems = check_file(FIXTURES / "lint_problems.yaml")
    file = str(FIXTURES / "lint_problems.yaml")
    assert [(p.file, p.line, p.field, p.severity) for p in problems] == [
        (file, 11, "scenes[0].location", Severity.ERROR),
        (file, 13, "scenes[0].next[0].scene", Severity.ERROR),
        (file, 14, "scenes[1]", Severity.WARNING),
        (file, 14, "scenes[1].next", Severity.ERROR),
        (file, 17, "scenes[2]", Severity.WARNING),
    ]
    assert str(problems[0]) == f"{file}:11: scenes[0].location: names no known location 'cellar'"
    assert str(problems[2]) == f"{file}:14: scenes[1]: warning: scene middle cannot be reached from start"
    assert len(errors(problems)) == 3


def test_check_file_reports_load_problems() -> None:
    problems = check_file(FIXTURES / "bad_fields.yaml")
    assert len(problems) == 5 and all(isinstance(p, Problem) for p in problems)
    assert errors(problems) == problems


# -- outcomes that lead nowhere (issue 18, point 3) ------------------------------------------


def test_a_branch_on_a_challenge_placed_only_later_can_never_hold(story_data: Data) -> None:
    """Issue 18, point 3: the linter reports a branch whose condition can never hold."""
    data = story_data()
    data["scenes"][1]["challenges"] = [{"id": "late", "name": "Late", "type": "wits", "value": 3,
                                        "on_fail": [{"do": "mark", "text": "Too late."}]}]
    data["scenes"][0]["next"][0]["when"] = {"failed": "late"}
    assert has(found(data), "error", "scenes[0].next[0].when",
               "can never hold: late is not placed by scene start or any scene before it")


def test_a_counter_nothing_raises_can_never_be_reached(story_data: Data) -> None:
    data = story_data()
    data["counters"].append({"id": "idle", "name": "Idle"})
    data["scenes"][0]["next"][0]["when"] = {"counter_at_least": {"counter": "idle", "value": 2}}
    assert has(found(data), "error", "scenes[0].next[0].when", "can never hold: nothing raises idle to 2")


def test_told_texts_and_postscripts_are_checked_like_exits(story_data: Data) -> None:
    data = story_data()
    data["scenes"][1]["endings"] = [{"when": {"overcome": "nowhere"}, "text": "It ends."}]
    data["postscripts"]["held"].append({"id": "held-2", "when": {"failed": "ghost-grip"}, "text": "{name} stays."})
    problems = found(data)
    assert has(problems, "error", "scenes[1].endings[0].when", "names no known challenge 'nowhere'")
    assert not any("postscripts" in f for _, f, _ in problems)


def test_a_scene_whose_every_way_out_has_a_condition_may_stop_dead(story_data: Data) -> None:
    """Issue 18, point 3: an outcome that leads nowhere (Door left untackled satisfies no condition)."""
    data = story_data()
    data["scenes"][0]["next"] = [{"scene": "end", "when": {"overcome": "door"}},
                                 {"scene": "end", "when": {"failed": "door"}}]
    assert has(found(data), "warning", "scenes[0].next", "every way out of start has a condition")
