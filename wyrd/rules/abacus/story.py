"""Setting up and closing a story: the cast, the story's standing rules, the finale.

Seed 000: every story ends with a final Wyrd roll for each character; a 6 means
the character is held by the Vale, anything lower frees them. [ours] A character
already defeated made their Wyrd roll at defeat and is listed as defeated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wyrd.rules.abacus.characters import Character, create_character
from wyrd.rules.abacus.effects import check_references
from wyrd.rules.abacus.enums import Ability
from wyrd.rules.abacus.errors import OutOfTurn
from wyrd.rules.abacus.events import CharacterCreated, StoryEnded
from wyrd.rules.abacus.reasons import RollReason
from wyrd.rules.abacus.scenes import add_rule
from wyrd.rules.abacus.stage import Clock, Counter, StageRule
from wyrd.rules.abacus.state import ChallengeSpec, Denizen
from wyrd.rules.abacus.turn import Turn, action
from wyrd.rules.abacus.wyrd import wyrd_roll

__all__ = ["DEFEATED", "FREED", "HELD", "add_character", "enlist", "enlist_party", "finale", "install"]

HELD = "held"
FREED = "freed"
DEFEATED = "defeated"


def _enter(turn: Turn, char: Character, party: Sequence[str] = ()) -> None:
    """Bring ``char`` in; a connection may name anyone already in, or in ``party``."""
    state = turn.state
    turn.not_ended()
    if any(k.casefold() == char.name.casefold() for k in state.characters):
        raise OutOfTurn(f"there is already a character called {char.name}", rule="abacus.character.unique-name")
    if char.connection is not None:
        wanted = char.connection.casefold()
        target = next((n for n in party if n.casefold() == wanted), None) or turn.character(char.connection).name
        char = char.model_copy(update={"connection": target})
    state.characters[char.name] = char
    turn.emit(CharacterCreated(name=char.name, body=char.scores[Ability.BODY], mind=char.scores[Ability.MIND],
                               soul=char.scores[Ability.SOUL], wyrd=char.wyrd, concept=char.concept,
                               connection=char.connection))


@action
def add_character(
    turn: Turn, name: str, body: int, mind: int, soul: int, *,
    facets: Mapping[Ability, Sequence[str]] | None = None, wyrd: int = 0, connection: str | None = None,
    concept: str = "",
) -> None:
    """Create a character by the creation rules and bring them into the story."""
    _enter(turn, create_character(name, body, mind, soul, facets=facets, wyrd=wyrd, connection=connection,
                                  concept=concept))


@action
def enlist(turn: Turn, character: Character) -> None:
    """Bring in a ready character (a story's pregenerated one), checked by the same rules."""
    _enter(turn, _checked(character))


@action
def enlist_party(turn: Turn, characters: Sequence[Character]) -> None:
    """Bring in several ready characters at once; their connections may name each other."""
    party = [c.name for c in characters]
    for character in characters:
        _enter(turn, _checked(character), party)


def _checked(character: Character) -> Character:
    return create_character(
        character.name, character.scores[Ability.BODY], character.scores[Ability.MIND],
        character.scores[Ability.SOUL], facets=character.facets, wyrd=character.wyrd,
        connection=character.connection, concept=character.concept,
    )


@action
def install(
    turn: Turn, *, rules: Sequence[StageRule] = (), clocks: Sequence[Clock] = (), counters: Sequence[Counter] = (),
    denizens: Sequence[Denizen] = (), catalogue: Sequence[ChallengeSpec] = (), connections: bool | None = None,
) -> None:
    """Bring a story's standing rules, clocks, counters, denizens and challenges into play."""
    state = turn.state
    turn.not_ended()
    for clock in clocks:
        state.clocks[clock.id] = clock.model_copy(deep=True)
    for counter in counters:
        state.counters[counter.id] = counter.model_copy(deep=True)
    for denizen in denizens:
        state.denizens[denizen.id] = denizen.model_copy(deep=True)
    for spec in catalogue:
        state.catalogue[spec.id] = spec.model_copy(deep=True)
    for clock in state.clocks.values():
        for threshold in clock.thresholds:
            check_references(state, threshold.effects, f"clock {clock.id}")
    for spec in state.catalogue.values():
        check_references(state, spec.on_fail or [], f"challenge {spec.id}")
    for rule in rules:
        check_references(state, rule.effects, f"rule {rule.id}")
        add_rule(turn, rule)
    if connections is not None:
        state.connections = connections


@action
def finale(turn: Turn) -> None:
    """The final Wyrd roll of every character still standing: 6 held by the Vale, lower freed."""
    state = turn.state
    turn.not_ended()
    if state.scene is not None:
        raise OutOfTurn(f"scene {state.scene.id} is still going; end it before the finale",
                        rule="abacus.finale.between-scenes")
    standing = [c.name for c in state.characters.values() if not c.defeated]
    rolls = wyrd_roll(turn, standing, reason=RollReason.FINALE) if standing else []
    results = {r.character: HELD if r.result == 6 else FREED for r in rolls}
    for char in state.characters.values():
        results.setdefault(char.name, DEFEATED)
    state.results = results
    state.ended = True
    turn.emit(StoryEnded(results=results))
