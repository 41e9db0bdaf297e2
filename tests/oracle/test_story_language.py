"""A story may name the language its prose is told in, in every ruleset (issue 19, point 2).

"refuse a reply not in the table's language (configurable)": the narrator config sets it for
every game (English by default), and a story file's ``language:`` sets it for its own. The
kit's requests carry it, and the firewall checks a model's reply against it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator
from wyrd.oracle.narrators.firewall import check
from wyrd.play.engine.session import Session
from wyrd.rules.dice import Dice

CONTENT = Path(__file__).resolve().parents[2] / "wyrd" / "stories" / "content"
STORIES = {
    "abacus": ("the-milestones.yaml", ["pc take all", "scene"]),
    "wolden": ("wolden/the-drowned-bell.yaml", ["pc take all", "scene", "scene"]),
    "feat": ("feat/lantern-at-gull-reach.yaml", ["scene"]),
    "lots": ("lots/harrow-mere.yaml", ["pc take all", "scene"]),
}


class Listening(Narrator):
    """Tells nothing of its own; keeps every request it is asked to tell."""

    source = "listening"

    def __init__(self) -> None:
        self.heard: list[NarrationRequest] = []

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        self.heard.append(request)
        return Narration(text="Rain on the roof.", source=self.source, moment=request.moment)


def _own_copy(tmp_path: Path, ruleset: str, language: str | None) -> str:
    """The bundled story under a new id, told in ``language`` (None: the file as it is)."""
    name, _ = STORIES[ruleset]
    text = (CONTENT / name).read_text(encoding="utf-8")
    story = re.search(r"^id: (\S+)$", text, re.M)
    assert story is not None
    new_id = f"{story.group(1)}-told"
    text = text.replace(story.group(0), f"id: {new_id}" + (f"\nlanguage: {language}" if language else ""), 1)
    folder = tmp_path / "stories"
    (folder / Path(name).parent).mkdir(parents=True, exist_ok=True)
    if ruleset == "wolden":  # the scenario names its cults, from the file beside it
        (folder / "wolden" / "cults.yaml").write_text((CONTENT / "wolden" / "cults.yaml").read_text("utf-8"), "utf-8")
    (folder / Path(name).parent / f"{new_id}.yaml").write_text(text, encoding="utf-8")
    return new_id


def _heard(tmp_path: Path, ruleset: str, language: str | None) -> list[NarrationRequest]:
    story = _own_copy(tmp_path, ruleset, language)
    session = Session.new(tmp_path / "g.wyrd", seed=7, ruleset=ruleset, story=story, content=[tmp_path / "stories"])
    listening = Listening()
    session.teller.use_llm(listening)
    session.teller.readings = False
    for line in STORIES[ruleset][1]:
        reply = session.execute(line)
        assert reply.refused is None, reply.reason
    session.close()
    assert listening.heard
    return listening.heard


@pytest.mark.parametrize("ruleset", sorted(STORIES))
def test_a_story_that_names_its_language_has_its_moments_checked_in_it(ruleset: str, tmp_path: Path) -> None:
    heard = _heard(tmp_path, ruleset, "fr")
    assert {r.language for r in heard} == {"fr"}, ruleset
    request = heard[-1].model_copy(update={"success": None, "harm": None, "death": None})
    # told in French, a French reply passes and an English one is refused for its language
    assert check("La brume descend sur la lande et le vent se tait.", request).ok
    refused = check("The fog settles over the moor and the wind falls quiet.", request)
    assert not refused.ok and refused.rule == "language"


@pytest.mark.parametrize("ruleset", sorted(STORIES))
def test_a_story_that_names_none_is_told_in_the_config_s_language(ruleset: str, tmp_path: Path) -> None:
    heard = _heard(tmp_path, ruleset, None)
    assert {r.language for r in heard} == {""}
    request = heard[-1].model_copy(update={"success": None, "harm": None, "death": None})
    assert check("The fog settles over the moor and the wind falls quiet.", request).ok
    assert not check("La brume descend sur la lande et le vent se tait.", request).ok


@pytest.mark.parametrize("ruleset", sorted(STORIES))
def test_a_language_that_is_not_a_code_is_an_error_naming_the_field(ruleset: str, tmp_path: Path) -> None:
    story = _own_copy(tmp_path, ruleset, "French")
    with pytest.raises(Exception, match="language") as info:
        Session.new(tmp_path / "g.wyrd", seed=7, ruleset=ruleset, story=story, content=[tmp_path / "stories"])
    assert str(tmp_path / "stories") in str(info.value) or "language" in str(info.value)
