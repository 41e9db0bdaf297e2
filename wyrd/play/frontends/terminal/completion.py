"""Tab completion for the REPL, driven by the verb registry and the ruleset's vocabulary.

The first word completes to a verb (keys and aliases). After it, each verb's
``completes`` says what its words are: a kind of word the ruleset's kit knows
(``character``, ``challenge``, ``ability``, ``enemy`` ...: ``PlayHooks.words``),
one every ruleset shares (``verb``; ``number``, ``story`` and ``""``, free text,
which offer nothing), or a literal word (``by``, ``with``): a literal is offered
where it may come, typing it jumps ahead, and a word typed where an optional literal
was expected moves past it. A trailing ``character`` repeats (``scene with A, B``).
A name of several words is put in quotes, so it stays one word of the line.
A verb whose words are not positional (the Abacus's ``pc add NAME body=5``) is
completed by the kit itself (``PlayHooks.complete``).

The completer reads the session through a callable, so it always sees the current
state, and it never raises: a bug here must never cost the player their game.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import NamedTuple

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from wyrd.play.engine.oracle_verbs import ODDS_WORDS
from wyrd.play.engine.session import Session
from wyrd.play.engine.verbs import Verb
from wyrd.play.engine.words import UsageError, split_line

__all__ = ["SHARED_KINDS", "WyrdCompleter", "complete_line"]

# Kinds of word every ruleset shares, whatever its kit knows: the verbs, the oracle's odds,
# and three that offer nothing (a number, a story's id, free text) but are no literal either.
SHARED_KINDS = frozenset({"verb", "odds", "number", "story", ""})

_FRAGMENT = re.compile(r"[^\s,]*$")


class _Choice(NamedTuple):
    """A candidate word and the note shown beside it in the menu."""

    text: str
    meta: str = ""


def _quoted(text: str) -> str:
    """``text`` as one word of a line: a name of several words goes in quotes."""
    return shlex.quote(text) if re.search(r"[\s,'\"]", text) else text


def _matching(fragment: str, choices: Iterable[_Choice], start: int) -> Iterator[Completion]:
    folded = fragment.lstrip("'\"").casefold()  # a quote opened for a name of several words
    seen: set[str] = set()
    for choice in choices:
        key = choice.text.casefold()
        if key.startswith(folded) and key not in seen:
            seen.add(key)
            yield Completion(_quoted(choice.text), start_position=start, display=choice.text,
                             display_meta=choice.meta or None)


def _choices(found: Mapping[str, str]) -> list[_Choice]:
    return [_Choice(text, note) for text, note in found.items()]


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


class _Vocabulary:
    """The words of each kind for one session as it stands, each kind asked of the kit once."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.ruleset = session.ruleset
        self._known: dict[str, Mapping[str, str] | None] = {}

    def kind(self, kind: str) -> Mapping[str, str] | None:
        """The words of ``kind`` (None: it is no kind, but a literal word)."""
        if kind not in self._known:
            found = self.session.kit.words(kind, self.session.state, self.session.follower)
            if found is None and kind == "verb":
                found = {key: "" for key in sorted(self.session.kit.verbs.verbs())}
            elif found is None and kind == "odds":  # the shared oracle's odds words
                found = dict.fromkeys(ODDS_WORDS, "")
            elif found is None and kind in SHARED_KINDS:
                found = {}
            self._known[kind] = found
        return self._known[kind]

    def is_kind(self, word: str) -> bool:
        return self.kind(word) is not None

    def choices(self, kind: str) -> list[_Choice]:
        found = self.kind(kind)
        return [_Choice(kind)] if found is None else _choices(found)  # a literal offers itself

    def verbs(self) -> list[_Choice]:
        known = self.session.kit.verbs.verbs()
        out = [_Choice(key, _about(verb)) for key, verb in sorted(known.items())]
        for verb in known.values():
            out += [_Choice(alias, f"= {verb.key}") for alias in verb.aliases]
        return out


def _position(kinds: tuple[str, ...], done: list[str], words: _Vocabulary) -> int:
    """Where in ``kinds`` the next word falls, after the words already typed."""
    at = 0
    for word in done:
        folded = word.casefold()
        ahead = range(at, len(kinds))
        literal = next((i for i in ahead if not words.is_kind(kinds[i]) and kinds[i] == folded), None)
        if literal is not None:
            at = literal + 1
            continue
        while at < len(kinds) and not words.is_kind(kinds[at]):
            at += 1  # an optional literal that was left out
        at += 1
    return at


def _positional(verb: Verb, done: list[str], words: _Vocabulary) -> list[_Choice]:
    kinds = verb.completes
    if not kinds:
        return []
    at = _position(kinds, done, words)
    if at >= len(kinds):
        # a trailing list of names goes on (`wyrd A, B`); anything else is finished
        if kinds[-1] != "character":
            return []
        named = {w.casefold() for w in done}
        return [c for c in words.choices("character") if c.text.casefold() not in named]
    return words.choices(kinds[at])


def complete_line(text: str, session: Session) -> list[Completion]:
    """The completions for the text before the cursor (may raise; the completer does not)."""
    fragment = _FRAGMENT.search(text)
    typed = fragment.group() if fragment else ""
    head = text[: len(text) - len(typed)]
    try:
        done = split_line(head)
    except UsageError:
        return []  # an open quote: free text
    start = -len(typed)
    words = _Vocabulary(session)
    if not done:
        return list(_matching(typed, words.verbs(), start))
    try:
        verb = session.kit.verbs.find(done[0])
    except UsageError:
        return []
    args = done[1:]
    own = session.kit.complete(verb.key, args, typed, session.state, session.follower)
    choices = _choices(own) if own is not None else _positional(verb, args, words)
    return list(_matching(typed, choices, start))


class WyrdCompleter(Completer):
    """Completes commands against whatever session ``get_session`` returns, as it stands now."""

    def __init__(self, get_session: Callable[[], Session]) -> None:
        self.get_session = get_session

    def get_completions(
        self, document: Document, complete_event: CompleteEvent,
    ) -> Iterator[Completion]:
        try:
            found = complete_line(document.text_before_cursor, self.get_session())
        except Exception:  # a completer bug must not end the game
            return
        yield from found
