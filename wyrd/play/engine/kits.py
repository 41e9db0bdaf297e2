"""How each ruleset is played: the kit the session, the console and the REPL call.

The play layer is shared by every ruleset: the save file, undo and replay, the
console, the REPL. What differs is gathered in each ruleset's kit: its verbs
(a :class:`~wyrd.play.engine.verbs.VerbTable`), the lines shown after each change
(exact odds, what the rules say is due), the status and the toolbar, the
narration of its events, how its own event kinds read, and how it follows its
stories. A kit module builds a :class:`PlayHooks` named ``KIT``; the registry
(:mod:`wyrd.rulesets`) says which module is each ruleset's kit, and
:func:`hooks_for` imports it on first use. The engine names no ruleset.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from wyrd.play.engine.events import EventKinds
from wyrd.play.engine.storyplay import Follower
from wyrd.play.engine.verbs import SHARED, VerbTable
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

__all__ = ["COMMON_MOVES", "Follower", "Move", "OracleHooks", "PlayHooks", "StoryLook", "Teller", "hooks_for", "kit_of",
           "moves_now"]

# before, after, the command's events, the narration's own dice -> the events to add
Teller = Callable[[Any, Any, list[Event], Dice], list[Event]]
# the state and the events of the command just applied (none at the opening) -> lines
Hints = Callable[[Any, Sequence[Event]], list[str]]


# the state and the story follower (None: the kit follows no story) -> lines to show
StoryLook = Callable[[Any, Any], list[str]]


def _nothing(state: Any, events: Sequence[Event] = ()) -> list[str]:
    return []


def _unseen(state: Any, follower: Any) -> list[str]:
    return []


def _nobody(state: Any) -> list[str]:
    return []


def _always(state: Any, follower: Any) -> bool:
    return True


class Move(NamedTuple):
    """A common move of a ruleset, offered as a button (the shared table's page).

    ``line`` is the command; ``send``: carried out as it is (False: put in the command line for
    the player to finish, as ``attempt `` wants a challenge). ``when``: (state, follower) ->
    whether it is a move now (a roll only while one is open).
    """

    label: str
    line: str
    send: bool = True
    when: Callable[[Any, Any], bool] = _always


#: The moves every ruleset has (the shared verbs): a kit's own come first, these after.
COMMON_MOVES: tuple[Move, ...] = (
    Move("Characters", "pc"), Move("Look", "look"), Move("Whose turn", "turn"),
    Move("Ask the oracle", "ask ", send=False),
)


# A named tuple, not a dataclass: made in a tenth of the time, before every game's first prompt, and as
# fixed once made (bench/RESULTS.md, issue 21).
class OracleHooks(NamedTuple):
    """What the shared oracle verbs (``ask``, ``chances``, ``inspire``) need of one ruleset.

    The question oracle is the same in every ruleset; what differs is who may ask,
    what stands for the scene's tension (the oracle's chaos), and what a doubled
    answer brings the asker, chosen by that ruleset's own sign of fate.
    """

    # everyone who may ask (``ask ... by NAME``)
    askers: Callable[[Any], list[str]] = _nobody
    # who asks when no name is given: the first of these (those present and able to act)
    present: Callable[[Any], list[str]] = _nobody
    # the oracle's chaos from the state: 0 calm, more for a scene under strain
    tension: Callable[[Any], int] = lambda state: 0
    # how the chances line names that tension ("the scene's Wyrd drawn")
    tension_words: str = "the scene's tension"
    # a doubled answer's twist for the asker: (answer event, asker, state, the narration's dice,
    # the story follower) -> events (None: the shared twist tables choose, as in the Abacus)
    twist: Callable[[Any, str, Any, Dice, Any], list[Event]] | None = None
    # the moment kind of a model's reading of an answer, a twist or an inspiration (the ruleset's
    # prompts claim it, in the ruleset's own voice): "interpretation" is the shared prompt's
    reading: str = "interpretation"


# A kit's hooks are one object per ruleset, told apart by identity: no generated equality, hash or
# repr (0.8 ms less to define the two before a game's first prompt, bench/RESULTS.md).
@dataclass(frozen=True, eq=False, repr=False)
class PlayHooks:
    """What the shared play layer needs to know of one ruleset: its kit."""

    ruleset: str
    # the verbs its players may use (SHARED's included)
    verbs: VerbTable = field(default_factory=lambda: VerbTable(shared=SHARED))
    # lines shown after every change (and at the opening, with no events): exact odds of
    # an open roll, what is due next; the command's events say what just happened
    hints: Hints = _nothing
    # more such lines from the state and the story follower (whom each enemy goes for this round)
    follower_hints: Callable[[Any, Any], list[str]] = lambda state, follower: []
    # `status`: the whole table at a glance
    status: Callable[[Any], list[str]] = lambda state: []
    # the REPL's bottom bar, one line
    toolbar: Callable[[Any], str] = lambda state: ""
    # `pc` / `pc NAME`: character sheets (None: everyone)
    sheet: Callable[[Any, str | None], list[str]] = lambda state, name: []
    # narration of a command's events (None: the Storyteller's own twists and tables)
    tell: Teller | None = None
    # every kind of event a game of the ruleset records (rules, kit, oracle; the shared ones
    # are always in): the union saved events are read back through
    events: EventKinds = field(default_factory=EventKinds)
    # how the ruleset's own event kinds read: kind -> event -> text
    texts: Mapping[str, Callable[[dict[str, Any]], str]] = field(default_factory=dict)
    # the story so far a language model is told: kind -> saved event -> one short line of plain
    # fact (a scene reached, an outcome settled, who is hurt; no dice or points), "" for none
    recall: Mapping[str, Callable[[dict[str, Any]], str]] = field(default_factory=dict)
    # a story follower, new (None) or from its snapshot (None: the ruleset follows no story)
    follow: Callable[[Mapping[str, Any] | None], Follower] | None = None
    # the kinds of event its verbs add after the rules (`after`) and its narration adds:
    # saved with the command, never replayed
    added_kinds: frozenset[str] = frozenset()
    # -- for the front-ends (wyrd.play.frontends): nothing here names a front-end or a library --
    # the style name of each own kind's line (good, bad, wyrd, scene ...): kind -> event -> style
    styles: Mapping[str, Callable[[dict[str, Any]], str]] = field(default_factory=dict)
    # lines when play begins, from the state and the story follower (how to make a character)
    opening: Callable[[Any, Any], list[str]] = lambda state, follower: []
    # the ruleset's own look-only verbs (`challenges`, `chances`): verb -> (state, args) -> lines
    looks: Mapping[str, Callable[[Any, Mapping[str, Any]], list[str]]] = field(default_factory=dict)
    # the toolbar as styled pieces (objects with ``text`` and ``style``, e.g. view.Line; a piece
    # "\n" starts a second line), in place of the one plain line of `toolbar` (None: that line)
    toolbar_pieces: Callable[[Any], list[Any]] | None = None
    # completion: the words of one kind that the verbs' ``completes`` name (character, ability,
    # enemy ...), from the state and the story follower, each with a short note; None when the
    # ruleset knows no such kind (the completer then reads it as a literal word)
    words: Callable[[str, Any, Any], Mapping[str, str] | None] = lambda kind, state, follower: None
    # completion of a verb whose words are not positional (`pc add NAME body=5`): the verb's key,
    # the words after it, the word being typed, the state, the follower -> the choices (None: by ``completes``)
    complete: Callable[[str, Sequence[str], str, Any, Any], Mapping[str, str] | None] = (
        lambda verb, done, typed, state, follower: None)
    # at an interactive front-end, before a line is carried out: the line with choices asked of
    # the players in turn (hot-seat), through ask(question, what, options, default) -> the choice
    # or None; returns the line to carry out, or None if a player cancelled
    ask_before: Callable[[str, Any, Callable[[str, str, Sequence[str], str], str | None]], str | None] | None = None
    # the story a first game at the terminal starts with (None: none, ad hoc play)
    quick_start: str | None = None
    # -- the narrator's looks: shared verbs, each ruleset's own answers --
    # `look`: the scene framed again: its title, where it is, what the story says of it, who is
    # present, what stands in the way and what each thing costs to fail
    frame: StoryLook = _unseen
    # `rules`: the text of every stage rule (or standing rule of the story) in force now
    stage_rules: StoryLook = _unseen
    # `exits`: where the story can go from here, what opens each way, which are open now
    exits: StoryLook = _unseen
    # `turn`: whose move it is and who has not acted this scene or round
    spotlight: StoryLook = _unseen
    # `odds COMMAND`: the chances of a command that rolls, before it is carried out: (state,
    # follower, the command read) -> lines (none: that command rolls no dice of this ruleset)
    preview: Callable[[Any, Any, Any], list[str]] = lambda state, follower, command: []
    # the event kinds that open a scene (`recap` tells the events since the last of them)
    scene_opens: frozenset[str] = frozenset()
    # the question oracle (`ask`, `chances`, `inspire`); every ruleset has one
    oracle: OracleHooks = field(default_factory=OracleHooks)
    # `pregens` (and `pc` before anyone is made): each pregenerated character of the story
    # followed, its whole sheet and whether it is taken, from the state and the story follower
    # (no lines: the story has none, or no story is followed)
    pregens: Callable[[Any, Any], list[str]] = lambda state, follower: []
    # the ruleset's common moves, offered as buttons where a front-end has them (its own first;
    # :data:`COMMON_MOVES` follow): see :func:`moves_now`
    moves: tuple[Move, ...] = ()


def moves_now(kit: PlayHooks, state: Any, follower: Any) -> list[Move]:
    """The kit's moves that are moves now, then the shared ones (a move that fails to tell is left out)."""
    found: list[Move] = []
    for move in (*kit.moves, *COMMON_MOVES):
        try:
            if move.when(state, follower):
                found.append(move)
        except Exception:  # a state of another shape (an old save's): no such move
            continue
    return found



def hooks_for(ruleset: str) -> PlayHooks:
    """The kit of ``ruleset``, from the registry's ``kit`` module (imported once, so its verbs too)."""
    from wyrd.rulesets import UnknownRuleset, find_ruleset

    try:
        module = find_ruleset(ruleset).part("kit")
    except UnknownRuleset as exc:
        raise LookupError(str(exc)) from None
    kit = getattr(module, "KIT", None)
    if not isinstance(kit, PlayHooks):
        raise LookupError(f"the ruleset {ruleset!r} cannot be played: its kit {module.__name__} has no KIT")
    return kit


def kit_of(state: object) -> PlayHooks:
    """The kit of the ruleset whose rules package made ``state`` (for callers that hold only a state)."""
    from wyrd.rulesets import rulesets

    module = type(state).__module__
    for ruleset in rulesets():
        if module == ruleset.rules or module.startswith(ruleset.rules + "."):
            return hooks_for(ruleset.id)
    raise LookupError(f"no ruleset's rules made a {type(state).__name__}")
