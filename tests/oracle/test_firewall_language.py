"""Issue 19, point 2: a reply not in the table's language is refused (the narrator config's language, default
English, or the story's own); English with a foreign name or a loanword passes. The word lists are data."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest
import yaml

from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.narrators.base import MomentKind, NarrationRequest
from wyrd.oracle.narrators.firewall import FIRST_WORDS, StreamGuard, check
from wyrd.oracle.narrators.language import LANGUAGES, foreign, language_name
from wyrd.oracle.narrators.llm_config import load_config

SCENE = NarrationRequest(moment=MomentKind.SCENE_OPENING, characters=[CharacterFacts(name="Ada")],
                         location="the village green")


@pytest.mark.parametrize("text", [
    "Ada muere en el barro.", "Ada stirbt im Schlamm.", "Ada meurt dans la boue.", "Ada ist tot.",
    "Ada est morte.", "Ada muore nel fango.", "Ada morre na lama.", "Ada sterft in de modder.", "Der Hund stirbt.",
    "Fog rises over the green. Ada gana el juego.", "Ада умирает в грязи.",
])
def test_a_reply_in_another_language_is_refused(text: str) -> None:
    verdict = check(text, SCENE)
    assert not verdict.ok and verdict.rule == "language" and verdict.reason.startswith("not in English")


@pytest.mark.parametrize("text", [
    "Señora Vell pours the tea and says nothing.", "Señora Vell smiles.", "She feels a déjà vu.",
    "A déjà vu.", "The coup de grâce falls on the straw man.", "Madame Roux reads palms by the well.",
    "Coral Vell.", "Fog, mist, rain.", "Herr Lindqvist left his pipe on the sill.",
    "The fiddler calls his tune a danse macabre.", "Edric greets the ferryman with a curt \"buenos días\".",
    "Van Tassel laughs.", "Da Silva smiles.", "Le Fay watches the mere.", "Ada sees Lady de Winter.",
])
def test_english_with_a_foreign_name_or_loanword_passes(text: str) -> None:
    assert check(text, SCENE).ok, check(text, SCENE).reason


def test_the_table_language_is_configurable_and_a_story_may_name_its_own() -> None:
    french = "Le brouillard monte sur la place et les lanternes tremblent."
    assert not check(french, SCENE).ok
    assert check(french, SCENE, language="fr").ok
    assert not check("The fog rises over the green and the lanterns tremble.", SCENE, language="fr").ok
    story_in_french = SCENE.model_copy(update={"language": "fr"})
    assert check(french, story_in_french).ok  # the story's language wins over the narrator's
    assert check("Niebla.", SCENE, language="xx").ok  # a language without a word list is not checked


def test_the_narrator_config_has_a_language_default_english(tmp_path: Path) -> None:
    assert load_config(environ={}, path=tmp_path / "none.toml").language == "en"
    config = tmp_path / "config.toml"
    config.write_text('[narrator]\nmodel = "ollama:llama3.2"\nlanguage = "fr"\n', encoding="utf-8")
    assert load_config(environ={}, path=config).language == "fr"


def test_the_first_words_wait_until_their_language_can_be_told() -> None:
    guard = StreamGuard(SCENE)
    shown = "".join(guard.feed(w + " ") for w in ["Ada", "muere", "en", "el", "barro."])
    assert shown == "" and guard.rejected is not None and guard.rejected.rule == "language"
    guard = StreamGuard(SCENE)
    assert guard.feed("Fog ") == guard.feed("on ") == ""
    assert guard.feed("the ") == "Fog on the"
    assert FIRST_WORDS == 3


def test_every_word_list_is_data_and_every_listed_language_loads() -> None:
    folder = files("wyrd.oracle.narrators").joinpath("words")
    found = sorted(p.name.removesuffix(".yaml") for p in folder.iterdir()
                   if p.name.endswith(".yaml") and p.name != "outcomes.yaml")
    assert tuple(found) == LANGUAGES
    for code in LANGUAGES:
        data = yaml.safe_load(folder.joinpath(f"{code}.yaml").read_text(encoding="utf-8"))
        assert isinstance(data["words"], str) and len(data["words"].split()) >= 60
        assert language_name(code) == data["name"]
    assert foreign("The fog rises over the green.") is None


def test_the_model_narrator_refuses_a_reply_in_another_language_and_takes_the_configured_one() -> None:
    """Issue 19, point 2: the narrator config's language reaches the firewall the narrator streams through."""
    pytest.importorskip("langchain_core")
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from wyrd.oracle.narrators.llm import FallbackNarration, LLMNarrator, narrate_with_fallback
    from wyrd.oracle.narrators.table import TableNarrator
    from wyrd.rules.dice import Dice

    spanish = "Ada camina por la plaza y el viento sopla."
    out = narrate_with_fallback(LLMNarrator(FakeListChatModel(responses=[spanish])), TableNarrator(), SCENE,
                                Dice.seeded(1))
    assert isinstance(out, FallbackNarration) and "not in English" in out.fallback_reason
    told = LLMNarrator(FakeListChatModel(responses=[spanish]), language="es").narrate(SCENE, Dice.seeded(1))
    assert told.text == spanish
