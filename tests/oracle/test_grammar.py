"""Issue 18, point 7: one grammar layer for every table text (wyrd.oracle.grammar)."""

from __future__ import annotations

import pytest

from wyrd.oracle.grammar import FORMS, group, person, reading, referent, who_clause
from wyrd.oracle.text import check_template, fill
from wyrd.stories.wording import FORMS as STORY_FORMS


@pytest.mark.parametrize(("name", "phrase", "proper"), [
    ("Tamsin Runs", "Tamsin Runs", True),  # a capitalised title is a proper name: no article added
    ("What Tamsin Whispers", "What Tamsin Whispers", True),
    ("Locked gate", "the locked gate", False),  # otherwise lower case with "the"
    ("The Barrow Door", "the Barrow Door", True),
    ("a mob", "a mob", False),
    ("Hale's knife", "Hale's knife", True),
])
def test_a_bare_name_is_read_the_simplest_safe_way(name: str, phrase: str, proper: bool) -> None:
    found = reading(name)
    assert (found.phrase, found.proper) == (phrase, proper)


def test_a_story_says_how_a_thing_reads() -> None:
    assert referent("What Tamsin Whispers", prose="Tamsin's whispering").phrase == "Tamsin's whispering"
    assert referent("Drowned Ringer", proper=False, article="the").phrase == "the drowned ringer"
    assert referent("The Gleaner", article="none").phrase == "Gleaner"
    hounds = referent("Causeway Dogs", plural=True)
    assert (hounds.form("is"), hounds.form("they"), hounds.form("s")) == ("are", "they", "")


@pytest.mark.parametrize(("pronouns", "words"), [
    ("she", "She loses her footing and finds herself alone; she is cold, and she does not stop."),
    ("he", "He loses his footing and finds himself alone; he is cold, and he does not stop."),
    ("they", "They lose their footing and find themself alone; they are cold, and they do not stop."),
])
def test_pronouns_and_the_verbs_after_them(pronouns: str, words: str) -> None:
    text = ("{Lead.they} lose{lead.they_s} {lead.their} footing and find{lead.they_s} {lead.themself} alone; "
            "{lead.they} {lead.are} cold, and {lead.they} {lead.do} not stop.")
    plain = text.replace("{lead.they_s}", "s" if pronouns != "they" else "")
    assert fill(plain, {"lead": person("Coral", pronouns)}) == words


def test_a_name_agrees_with_its_verb() -> None:
    both = group([person("Ada", "she"), person("Bo", "he")])
    assert fill("{hurt} {hurt.is} hurt and pay{hurt.s}; {hurt} go{hurt.es} on.", {"hurt": both}) == (
        "Ada and Bo are hurt and pay; Ada and Bo go on.")
    assert fill("{hurt} {hurt.is} hurt and pay{hurt.s}; {hurt} go{hurt.es} on.", {"hurt": person("Ada")}) == (
        "Ada is hurt and pays; Ada goes on.")


@pytest.mark.parametrize(("facet", "clause"), [
    ("stubborn", "who is stubborn"),
    ("thin as a rake", "who is thin as a rake"),
    ("a bad knee", "who has a bad knee"),
    ("quick fingers", "who has quick fingers"),
    ("knows every back road in the county", "who knows every back road in the county"),
    ("was crowned Sweetheart herself", "who was crowned Sweetheart herself"),
    ("would die for her sister", "who would die for her sister"),
    ("her mother was fen-born", "whose mother was fen-born"),
])
def test_a_facet_reads_as_a_clause_after_a_name(facet: str, clause: str) -> None:
    """"Coral Vell is was crowned Sweetheart" (Issue 18, point 7) cannot be written with {facet.who}."""
    assert who_clause(facet) == clause
    assert fill("{character}, {facet.who}, waits.", {"character": "Coral", "facet": facet}) == (
        f"Coral, {clause}, waits.")


def test_the_forms_are_one_list_and_checked_at_load_time() -> None:
    assert STORY_FORMS | {""} == FORMS
    assert check_template("{Challenge} and {lead.their} {hurt.is} {facet.who} {x.s} {y|z}") is None
    assert "unknown form" in (check_template("{lead.thier}") or "")
    assert check_template("{CHallenge}") is not None


def test_a_model_is_told_each_character_s_pronouns() -> None:
    """A language model narrating reads the pronouns the story gives (they: left unsaid)."""
    from wyrd.oracle.facts import CharacterFacts
    from wyrd.oracle.narrators.base import NarrationRequest
    from wyrd.oracle.narrators.llm_facts import facts_dict

    request = NarrationRequest(moment="introduction", characters=[
        CharacterFacts(name="Coral", pronouns="she"), CharacterFacts(name="Ada")])
    said = {c["name"]: c.get("pronouns") for c in facts_dict(request)["characters"]}
    assert said == {"Coral": "she", "Ada": None}
