"""Tab completion for the REPL, driven by the verb registry.

The first word completes to a verb (keys and aliases). After it, each verb's
``completes`` says what its words are: ``character``, ``challenge``, ``ability``,
``type``, ``form``, ``verb``, ``number`` or a literal word (``by``, ``with``): a
literal is offered where it may come, typing it jumps ahead, and a word typed where
an optional literal was expected moves past it. A trailing ``character`` repeats
(``scene with A, B``). ``pc`` and ``end`` read ``key=value`` words and are completed
specially: ``pc add`` offers its options, ``end scene recover`` offers ``NAME=ability``
pairs with only the abilities that can recover.

The completer reads the state through a callable, so it always sees the current
one, and it never raises: a bug here must never cost the player their game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from wyrd.play.engine.kits import kit_of
from wyrd.play.engine.verbs import Verb
from wyrd.play.engine.words import UsageError, split_line
from wyrd.rules.abacus import Ability, ChallengeType, GameState, MagicForm

__all__ = ["KINDS", "PC_OPTIONS", "WyrdCompleter", "complete_line", "recoverable"]

PC_OPTIONS = ("body=", "mind=", "soul=", "wyrd=", "concept=", "connection=")
# The kinds of word the completer knows how to fill in; any other entry is a literal word.
KINDS = frozenset({"character", "challenge", "ability", "type", "form", "verb", "number"})
# Verbs whose words are not what `completes` suggests position by position: "" is free text.
_SHAPES: dict[str, tuple[str, ...]] = {"challenge": ("add", "", "type", "number")}

_FRAGMENT = re.compile(r"[^\s,]*$")


class _Choice:
    """A candidate word and the note shown beside it in the menu."""

    __slots__ = ("meta", "text")

    def __init__(self, text: str, meta: str = "") -> None:
        self.text = text
        self.meta = meta


def _matching(fragment: str, choices: Iterable[_Choice], start: int) -> Iterator[Completion]:
    folded = fragment.casefold()
    seen: set[str] = set()
    for choice in choices:
        key = choice.text.casefold()
        if key.startswith(folded) and key not in seen:
            seen.add(key)
            yield Completion(choice.text, start_position=start, display_meta=choice.meta or None)


def _about(verb: Verb) -> str:
    """The usage, or for a verb that takes no words, the first line of its help."""
    usage = verb.usage()
    if usage != verb.key:
        return usage
    paragraph = verb.help().split("\n\n")[1:2]
    if not paragraph:
        return usage
    text = " ".join(paragraph[0].split())
    return text.split(". ")[0].rstrip(".") + "."


def _verb_choices(state: object) -> list[_Choice]:
    out = [_Choice(key, _about(verb)) for key, verb in sorted(kit_of(state).verbs.verbs().items())]
    for verb in kit_of(state).verbs.verbs().values():
        out += [_Choice(alias, f"= {verb.key}") for alias in verb.aliases]
    return out


def _kind_choices(kind: str, state: GameState) -> list[_Choice]:
    if kind == "character":
        chars = state.characters.values()
        return [_Choice(c.name, "defeated" if getattr(c, "defeated", False) else "") for c in chars]
    if kind == "challenge":
        scene = state.scene
        if scene is None:
            return []
        return [_Choice(c.id, f"{c.name}, {c.type.value} {c.value} ({c.status.value})")
                for c in scene.challenges.values()]
    if kind == "ability":
        return [_Choice(a.value) for a in Ability]
    if kind == "type":
        return [_Choice(t.value, t.ability.value) for t in ChallengeType]
    if kind == "form":
        return [_Choice(f.value) for f in MagicForm]
    if kind == "verb":
        return [_Choice(key) for key in sorted(kit_of(state).verbs.verbs())]
    if kind in ("number", ""):
        return []
    return [_Choice(kind)]  # a literal word


def _position(kinds: tuple[str, ...], done: list[str]) -> int:
    """Where in ``kinds`` the next word falls, after the words already typed."""
    at = 0
    for word in done:
        folded = word.casefold()
        ahead = range(at, len(kinds))
        literal = next((i for i in ahead if kinds[i] not in KINDS and kinds[i] == folded), None)
        if literal is not None:
            at = literal + 1
            continue
        while at < len(kinds) and kinds[at] not in KINDS and kinds[at] != "":
            at += 1  # an optional literal that was left out
        at += 1
    return at


def _positional(verb: Verb, done: list[str], state: GameState) -> list[_Choice]:
    kinds = _SHAPES.get(verb.key, verb.completes)
    if not kinds:
        return []
    at = _position(kinds, done)
    if at >= len(kinds):
        # a trailing list of names goes on (`wyrd A, B`); anything else is finished
        if kinds[-1] != "character":
            return []
        named = {w.casefold() for w in done}
        return [c for c in _kind_choices("character", state) if c.text.casefold() not in named]
    return _kind_choices(kinds[at], state)


def _pc(done: list[str], fragment: str, state: GameState) -> list[_Choice]:
    if not done:  # `pc add ...` or `pc NAME`
        return [_Choice("add", "a new character"), *_kind_choices("character", state)]
    if done[0].casefold() != "add":
        return []
    if len(done) < 2:
        return []  # the new character's name is the player's to invent
    if fragment.casefold().startswith("connection="):
        return [_Choice(f"connection={c}") for c in state.characters]
    used = {w.split("=", 1)[0].casefold() + "=" for w in done if "=" in w}
    return [_Choice(o) for o in PC_OPTIONS if o not in used]


def recoverable(state: GameState, name: str) -> list[Ability]:
    """The abilities ``name`` could recover at a scene's end: spent and not scratched."""
    char = state.characters.get(name)
    if char is None or char.defeated:
        return []
    return [a for a in Ability if not char.is_scratched(a) and char.spent(a) > 0]


def _end(done: list[str], fragment: str, state: GameState) -> list[_Choice]:
    if not done:
        return [_Choice("scene")]
    groups = ["recover", *(["connection"] if state.connections else [])]
    said = [w.casefold() for w in done if w.casefold() in ("recover", "connection")]
    group = said[-1] if said else None
    if group is None:
        return [_Choice(g) for g in groups]
    scene = state.scene
    faced = list(scene.faced) if scene is not None else list(state.characters)
    name, eq, _ = fragment.partition("=")
    if eq:
        who = next((n for n in faced if n.casefold() == name.casefold()), None)
        if who is None:
            return []
        return [_Choice(f"{name}={a.value}", f"{state.characters[who].spent(a)} spent")
                for a in recoverable(state, who)]
    chosen = {w.split("=", 1)[0].casefold() for w in done if "=" in w}
    out = [_Choice(f"{n}=") for n in faced if n.casefold() not in chosen and recoverable(state, n)]
    return out + [_Choice(g) for g in groups if g != group]


def complete_line(text: str, state: GameState) -> list[Completion]:
    """The completions for the text before the cursor (may raise; the completer does not)."""
    fragment = _FRAGMENT.search(text)
    typed = fragment.group() if fragment else ""
    head = text[: len(text) - len(typed)]
    if typed[:1] in ("'", '"'):
        return []  # inside free text
    try:
        done = split_line(head)
    except UsageError:
        return []  # an open quote: free text
    start = -len(typed)
    if not done:
        return list(_matching(typed, _verb_choices(state), start))
    try:
        verb = kit_of(state).verbs.find(done[0])
    except UsageError:
        return []
    args = done[1:]
    if verb.key == "pc" and isinstance(state, GameState):  # another ruleset's pc follows its `completes`
        choices = _pc(args, typed, state)
    elif verb.key == "end":
        choices = _end(args, typed, state)
    else:
        choices = _positional(verb, args, state)
    return list(_matching(typed, choices, start))


class WyrdCompleter(Completer):
    """Completes commands against whatever state ``get_state`` returns now."""

    def __init__(self, get_state: Callable[[], GameState]) -> None:
        self.get_state = get_state

    def get_completions(
        self, document: Document, complete_event: CompleteEvent,
    ) -> Iterator[Completion]:
        try:
            found = complete_line(document.text_before_cursor, self.get_state())
        except Exception:  # a completer bug must not end the game
            return
        yield from found
