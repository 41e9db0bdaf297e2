"""Issue 19, point 2: outcomes, harm, defeat, death and recovery are read from a lexicon of phrasings kept as
data with stable ids, in every form of their verbs, so a paraphrase of success on a failed roll does not pass;
ordinary imagery does ("Dead leaves skitter across the green", "the fire dies down")."""

from __future__ import annotations

import pytest

from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.narrators.base import NarrationRequest
from wyrd.oracle.narrators.firewall import StreamGuard, check
from wyrd.oracle.narrators.lexicon import CATEGORIES, Lexicon, find, forms, lexicon

CAST = [CharacterFacts(name="Ada"), CharacterFacts(name="Coral Vell")]


def moment(**settled: object) -> NarrationRequest:
    return NarrationRequest(moment="lots/check", subject="Ada", characters=CAST, location="the village green",
                            **settled)


FAILED = moment(success=False, harm=False, death=False)
SUCCEEDED = moment(success=True, harm=False, death=False)
CALM = moment(harm=False, death=False)
HURT = moment(harm=True, death=False)
RESTING = NarrationRequest(moment="feat/recover", subject="Ada", characters=CAST, harm=False, death=False)


@pytest.mark.parametrize(("lemma", "expected"), [
    ("slip", ["slip", "slips", "slipped", "slipping"]),
    ("stumble", ["stumble", "stumbles", "stumbled", "stumbling"]),
    ("die", ["die", "dies", "died", "dying"]),
    ("fail", ["fail", "fails", "failed", "failing"]),
    ("open", ["open", "opens", "opened", "opening"]),
    ("perish", ["perish", "perishes", "perished", "perishing"]),
    ("carry", ["carry", "carries", "carried", "carrying"]),
    ("stir", ["stir", "stirs", "stirred", "stirring"]),
])
def test_a_verb_is_matched_in_every_form(lemma: str, expected: list[str]) -> None:
    assert forms(lemma) == expected


@pytest.mark.parametrize(("request_", "text", "rule"), [
    (FAILED, "She slips through the gate with ease.", "success.through"),
    (FAILED, "She crosses the yard with ease.", "success.ease"),
    (FAILED, "Ada slipped past the watchman.", "success.through"),
    (FAILED, "Slipping through the crowd, Ada reaches the stall.", "success.through"),
    (FAILED, "Ada succeeds in forcing the gate.", "success.succeed"),
    (FAILED, "Ada manages to lift the latch.", "success.manage"),
    (FAILED, "Ada effortlessly climbs the wall.", "success.ease"),
    (FAILED, "Ada triumphantly throws the gate wide.", "success.triumph"),
    (SUCCEEDED, "Ada fails to open the gate.", "failure.fail"),
    (SUCCEEDED, "Ada stumbles on the wet stone.", "failure.stumble"),
    (SUCCEEDED, "The gate won't budge.", "failure.held"),
    (CALM, "Coral Vell breathes her last.", "death.last_breath"),
    (CALM, "The light leaves Ada's eyes.", "death.last_breath"),
    (CALM, "Coral is dying, and nobody comes.", "death.die"),
    (CALM, "Ada is knocked out cold.", "defeat.down"),
    (CALM, "Blood runs down Ada's wrist.", "harm.wound"),
    (HURT, "Ada's wounds close as she watches.", "recovery.heal"),
    (HURT, "Coral Vell dies of the wound.", "death.die"),
    (CALM, "Coral dies in the mud, as the legend foretold.", "death.die"),
    (CALM, "By dawn Ada had died on the stair.", "death.die"),
    (CALM, "Coral Vell joins the dead beneath the water.", "death.die"),
])
def test_a_paraphrase_against_the_facts_is_refused_with_its_entry(request_: NarrationRequest, text: str,
                                                                   rule: str) -> None:
    """Issue 19, point 2: "She slips through the gate with ease" for a failed roll does not pass."""
    verdict = check(text, request_)
    assert not verdict.ok and verdict.rule == rule, verdict


@pytest.mark.parametrize(("request_", "text"), [
    (SUCCEEDED, "She slips through the gate with ease."),  # the truth, told
    (FAILED, "Ada tries to slip past the watchman, but he sees her."),
    (FAILED, "The rope slips through her fingers."),
    (CALM, "Dead leaves skitter across the green."),
    (CALM, "She steps over dead leaves."),
    (CALM, "A dead calm settles on the fair."),
    (CALM, "Death-masks of straw hang on every door."),
    (CALM, "A bleeding sunset stains the millpond."),
    (CALM, "Ada watches the dying light."),
    (CALM, "A killing frost creeps in under the hedges."),
    (CALM, "The fire dies down, and Coral pulls her shawl close."),
    (CALM, "Coral would die for her sister."),
    (CALM, "Ada walks in the dead of night."),
    (CALM, "Ada is scared to death of the straw men."),
    (CALM, "Coral does not die tonight."),
    (HURT, "Ada is hurt, and the gate holds."),
    (RESTING, "The wound on Ada's arm heals clean."),
    (CALM, "Ada remembers the night her father drowned."),
    (CALM, "Coral's brother died at sea years ago."),
    (CALM, "Ada tells of the girl who drowned in the millpond."),
    (CALM, "Ada feels the weight of her brother's death."),
    (CALM, "Ada feels a chill, as if the dead were watching her."),
])
def test_imagery_and_the_truth_pass(request_: NarrationRequest, text: str) -> None:
    verdict = check(text, request_)
    assert verdict.ok, verdict.reason


def test_an_adjective_at_the_end_of_a_streaming_reply_waits_for_its_noun() -> None:
    guard = StreamGuard(CALM)
    shown = "".join(guard.feed(w + " ") for w in ["She", "steps", "over", "dead"])
    assert guard.rejected is None and "dead" not in shown
    shown += guard.feed("leaves. ")
    verdict = guard.finish()
    assert verdict.ok and shown + guard.rest(verdict) == "She steps over dead leaves."
    guard = StreamGuard(CALM)
    for word in ["Coral", "lies", "dead", "on", "the", "green."]:
        assert "dead" not in guard.feed(word + " ")
    assert not guard.finish().ok


def test_the_lexicon_is_data_with_stable_unique_ids() -> None:
    lex = lexicon()
    ids = lex.ids()
    assert len(ids) == len(set(ids)) and {i.split(".")[0] for i in ids} == set(CATEGORIES)
    assert "success.ease" in ids and "death.last_breath" in ids


def test_a_word_yaml_reads_as_something_else_is_refused_at_load() -> None:
    data = {"irregular": {}, "imagery": ["dead calm"], "attributive": ["dead"], "person_nouns": ["man"],
            "linking": [True], "categories": {}}
    with pytest.raises(ValueError, match="quote it"):
        Lexicon.parse(data)
    with pytest.raises(ValueError, match="unknown category"):
        Lexicon.parse({**data, "linking": ["on"], "categories": {"luck": {"about": False, "entries": []}}})


def test_find_reads_only_claims_near_a_person() -> None:
    about = frozenset({"ada", "she"})
    assert find("death", "dead leaves skitter across the green.", about) is None
    claim = find("death", "ada lies dead by the stall.", about)
    assert claim is not None and claim.id == "death.die" and claim.words == "dead"
