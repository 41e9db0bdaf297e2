"""The one place dice are rolled (rules/dice.py).

DESIGN.md: every roll goes through Dice and is recorded (faces, purpose); dice are
seeded (reproducible sessions), scripted (tests, replay) or typed in (players
rolling physical dice); a refused action puts the dice back where they were.
"""

from __future__ import annotations

import random

import pytest

from wyrd.rules.abacus import GameState, add_character, attempt, roll, start_scene
from wyrd.rules.abacus import add_challenge as add
from wyrd.rules.dice import (
    Dice,
    DiceExhausted,
    FaceOutOfRange,
    Roll,
    ScriptedSource,
    SeededSource,
    TypedSource,
)
from wyrd.rules.errors import RuleError


def test_seeded_reproducible() -> None:
    """DESIGN.md: a session is reproducible from its seed."""
    a, b = Dice.seeded(42), Dice.seeded(42)
    rolls_a = [a.d6(3, "x").faces for _ in range(20)]
    rolls_b = [b.d6(3, "y").faces for _ in range(20)]
    assert rolls_a == rolls_b
    assert all(1 <= f <= 6 for faces in rolls_a for f in faces)
    assert rolls_a != [Dice.seeded(43).d6(3).faces for _ in range(20)]


def test_seeded_leaves_global_random_alone() -> None:
    """DESIGN.md: the rules core never uses the global random."""
    random.seed(7)
    state = random.getstate()
    dice = Dice.seeded(1)
    dice.d6(10)
    assert random.getstate() == state
    assert isinstance(dice.source, SeededSource)


def test_default_source_is_seeded() -> None:
    """[ours, dice.Dice] with no source given, dice are seeded from the system."""
    assert isinstance(Dice().source, SeededSource)


def test_seeded_faces_cover_the_die() -> None:
    """Seed 000: every die is a d6; a seeded d6 shows each face."""
    faces = Dice.seeded("cover").d6(600).faces
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_scripted_in_order() -> None:
    """[ours, dice.ScriptedSource] scripted faces are handed out in order."""
    dice = Dice.scripted([3, 1, 4, 1, 5])
    assert dice.d6(2, "a").faces == (3, 1)
    assert dice.d6(3, "b").faces == (4, 1, 5)


def test_scripted_exhausted() -> None:
    """[ours, dice.ScriptedSource] running out of scripted faces is an error."""
    dice = Dice.scripted([2])
    with pytest.raises(DiceExhausted) as caught:
        dice.d6(2, "two dice")
    assert caught.value.rule == "dice.script-exhausted"
    assert dice.history == []


def test_scripted_face_out_of_range() -> None:
    """DESIGN.md: a face not on the die is refused, whatever its source."""
    with pytest.raises(FaceOutOfRange) as caught:
        Dice.scripted([7]).d6()
    assert caught.value.rule == "dice.face-range"


def test_history_records_every_roll() -> None:
    """DESIGN.md: every roll is recorded with its faces and purpose."""
    dice = Dice.scripted([6, 2, 2])
    dice.d6(1, "challenge roll: knife")
    dice.roll(2, 6, "wyrd roll")
    assert dice.history == [Roll(sides=6, faces=(6,), purpose="challenge roll: knife"),
                            Roll(sides=6, faces=(2, 2), purpose="wyrd roll")]


def test_roll_properties() -> None:
    """Seed 000: an influence result is the highest die (0 dice: nothing rolled)."""
    assert Roll(sides=6, faces=(2, 5, 3), purpose="x").highest == 5
    assert Roll(sides=6, faces=(2, 5, 3), purpose="x").total == 10
    assert Dice.scripted([]).d6(0).highest == 0


def test_bad_roll_arguments() -> None:
    """[ours, dice.Dice.roll] a roll of negative dice or sideless dice is a bug."""
    with pytest.raises(ValueError):
        Dice.scripted([]).d6(-1)
    with pytest.raises(ValueError):
        Dice.scripted([]).roll(1, 0)


# -- typed in --------------------------------------------------------------------------


def test_typed_faces_from_the_players() -> None:
    """DESIGN.md: players may roll physical dice and type the faces in."""
    asked: list[tuple[int, int, str]] = []

    def ask(n: int, sides: int, purpose: str) -> list[int]:
        asked.append((n, sides, purpose))
        return [4] * n

    dice = Dice.typed(ask)
    assert dice.d6(2, "wyrd roll").faces == (4, 4)
    assert asked == [(2, 6, "wyrd roll")]
    assert isinstance(dice.source, TypedSource)


@pytest.mark.parametrize("typed", [[7], [0], [-1]])
def test_typed_out_of_range_refused(typed: list[int]) -> None:
    """[ours, dice.TypedSource] a typed face outside 1..sides is refused, and
    nothing is recorded."""
    dice = Dice.typed(lambda n, sides, purpose: typed)
    with pytest.raises(FaceOutOfRange) as caught:
        dice.d6(1, "challenge roll")
    assert isinstance(caught.value, RuleError)
    assert dice.history == []


@pytest.mark.parametrize("typed", [[True], [4.5]])
def test_typed_non_integer_refused(typed: list[object]) -> None:
    """[ours, dice._check_face] a face must be a whole number on the die; a bool or a
    fraction is not a face (the check means to refuse bools)."""
    dice = Dice.typed(lambda n, sides, purpose: typed)  # type: ignore[arg-type,return-value]
    with pytest.raises(FaceOutOfRange):
        dice.d6(1)


def test_typed_wrong_count_refused() -> None:
    """[ours, dice.Dice.roll] the players must type one face per die."""
    dice = Dice.typed(lambda n, sides, purpose: [3])
    with pytest.raises(FaceOutOfRange):
        dice.d6(2)


def test_typed_refused_inside_an_action_changes_nothing() -> None:
    """DESIGN.md: a refused command leaves the state unchanged (here a mistyped die)."""
    faces = iter([[9], [5]])
    dice = Dice.typed(lambda n, sides, purpose: next(faces))
    state = add_character(GameState(), dice, "Ada", 5, 5, 5).state
    state = start_scene(state, dice, ["Ada"]).state
    state = add(state, dice, "Door", "obstruction", 3).state
    state = attempt(state, dice, "door", "Ada").state
    dump = state.model_dump()
    with pytest.raises(FaceOutOfRange):
        roll(state, dice)
    assert state.model_dump() == dump and dice.history == []
    assert roll(state, dice).state.scene.challenges["door"].status == "overcome"  # type: ignore[union-attr]


# -- supply ------------------------------------------------------------------------------


def test_supply_queue_used_first() -> None:
    """DESIGN.md: `roll 4` queues a physical die's face; queued faces come before the source."""
    dice = Dice.scripted([1, 2, 3])
    dice.supply([6, 5])
    assert dice.queued == (6, 5)
    assert dice.d6(3).faces == (6, 5, 1)
    assert dice.queued == ()
    assert dice.d6(1).faces == (2,)


def test_supply_more_than_one_roll_needs() -> None:
    """[ours, dice.Dice.supply] queued faces wait for the next rolls."""
    dice = Dice.seeded(0)
    dice.supply([4, 4, 4])
    assert dice.d6(1).faces == (4,)
    assert dice.queued == (4, 4)


def test_supply_out_of_range_refused() -> None:
    """DESIGN.md: a typed face not on the die is refused; nothing is queued."""
    dice = Dice.scripted([])
    with pytest.raises(FaceOutOfRange):
        dice.supply([3, 7])
    assert dice.queued == ()
    dice.supply([7], sides=8)
    assert dice.queued == (7,)


# -- mark and rewind ---------------------------------------------------------------------


@pytest.mark.parametrize("make", [lambda: Dice.seeded(9), lambda: Dice.scripted([1, 2, 3, 4, 5, 6])])
def test_mark_rewind(make) -> None:
    """DESIGN.md: a refused action leaves the dice where they were; the faces rolled
    since the mark come again."""
    dice = make()
    dice.d6(1)
    dice.supply([6])
    mark = dice.mark()
    first = dice.d6(3).faces
    assert dice.rolls_since(mark) == [dice.history[-1]]
    dice.rewind(mark)
    assert len(dice.history) == 1
    assert dice.queued == (6,)
    assert dice.d6(3).faces == first


def test_scripted_state_is_the_position() -> None:
    """[ours, dice.ScriptedSource] the scripted source's state is how far it has read."""
    source = ScriptedSource([1, 2, 3])
    source.faces(2, 6, "x")
    assert source.get_state() == 2 and source.remaining == 1
    source.set_state(0)
    assert source.faces(3, 6, "x") == [1, 2, 3]


def test_refused_action_rewinds_dice() -> None:
    """rules/abacus/turn.action: a refused action rewinds the dice, so the next action
    gets the same faces."""
    dice = Dice.seeded(5)
    state = add_character(GameState(), dice, "Ada", 5, 5, 5).state
    state = start_scene(state, dice, ["Ada"]).state
    state = add(state, dice, "Door", "obstruction", 3).state
    state = attempt(state, dice, "door", "Ada").state
    mark = dice.mark()
    with pytest.raises(RuleError):
        attempt(state, dice, "door", "Ada")
    assert dice.mark() == mark
    probe = Dice.seeded(5)
    assert roll(state, dice).events[0].die == probe.d6(1).faces[0]  # type: ignore[attr-defined]


def test_seeded_faces_are_the_generators_own() -> None:
    """[ours, dice.SeededSource] a seeded die's faces are its generator's draws, in order
    (they are trusted, so no check comes between them)."""
    draws = random.Random("own")
    assert Dice.seeded("own").d6(12).faces == tuple(draws.randint(1, 6) for _ in range(12))


def test_queued_faces_on_a_seeded_source_are_still_checked() -> None:
    """DESIGN.md: a typed face not on the die is refused, whatever the source behind it."""
    dice = Dice.seeded(3)
    dice.supply([7], sides=None)  # dice of several kinds queued together: checked when used
    with pytest.raises(FaceOutOfRange):
        dice.d6(1)


def test_a_source_of_its_own_is_checked() -> None:
    """DESIGN.md: every face is on the die; a source that does not vouch for its faces is checked."""

    class Loaded:
        def faces(self, n: int, sides: int, purpose: str) -> list[int]:
            return [7] * n

        def get_state(self) -> object:
            return None

        def set_state(self, state: object) -> None:
            return None

    with pytest.raises(FaceOutOfRange):
        Dice(Loaded()).d6(1)
