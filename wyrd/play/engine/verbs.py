"""The command language: each verb is a class whose docstring is its in-game help.

A verb reads its words into canonical arguments (plain JSON: names resolved,
numbers checked), and applies those arguments to the rules. The session saves
the canonical arguments, so a replay never depends on how a line was typed, and
``help VERB`` prints the verb's own docstring.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict

from wyrd.play.engine.words import UsageError, Words, split_line, suggest
from wyrd.rules.abacus import GameState, Outcome
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.play.engine.storyplay import PlayContext

__all__ = ["SHARED", "Args", "Parsed", "Verb", "find_verb", "parse_line", "register", "ruleset_of", "verbs"]

Args = dict[str, Any]


class Verb:
    """One verb. Subclasses set ``key`` and implement ``parse`` and ``apply``.

    The first line of the docstring is the usage; the rest is the help text.
    ``changes`` is False for verbs that only look (``pc``, ``log``): those are
    neither saved nor undone.
    """

    key: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    # the rulesets whose players may use it ("*": all of them)
    rulesets: ClassVar[tuple[str, ...]] = ("abacus",)
    changes: ClassVar[bool] = True
    # what the words after the verb are, for completion: "character", "challenge",
    # "ability", "type", "form", or a literal word
    completes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def usage(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or cls.key).splitlines()[0]

    @classmethod
    def help(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or cls.key)

    def is_change(self, args: Mapping[str, Any]) -> bool:
        return self.changes

    def typed_faces(self, args: Mapping[str, Any]) -> list[int]:
        """Faces of real dice typed with the command (``roll 4``), used before any other.

        Faces of any die (d4, d6, d8, d12, d100), in the order the command rolls
        them; each is checked against the die that uses it. The session supplies
        them to the live dice; a replay does not, since the saved faces already
        include them.
        """
        return []

    def parse(self, words: Words, state: GameState) -> Args:
        words.done()
        return {}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        """Complete the arguments from the story before the command is applied and saved.

        Whatever is taken from the story goes into the arguments, so a replay
        needs neither the story file nor the dice that chose from it.
        """
        return args

    def after(self, args: Mapping[str, Any], events: list[dict[str, Any]], ctx: PlayContext,
              state: GameState) -> list[dict[str, Any]]:
        """Events the play layer adds to the rules' own (a postscript, the rules now evident)."""
        return []

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        raise NotImplementedError


# Verbs by ruleset id; SHARED verbs (help, undo, log ...) belong to every ruleset.
SHARED = "*"
_VERBS: dict[str, dict[str, Verb]] = {}
_ALIASES: dict[str, dict[str, str]] = {}


def register(cls: type[Verb]) -> type[Verb]:
    verb = cls()
    for ruleset in cls.rulesets:
        _VERBS.setdefault(ruleset, {})[cls.key] = verb
        for alias in cls.aliases:
            _ALIASES.setdefault(ruleset, {})[alias] = cls.key
    return cls


def ruleset_of(state: object) -> str:
    """The id of the ruleset a rules state belongs to (``wyrd.rules.feat.state.GameState``: feat)."""
    parts = type(state).__module__.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["wyrd", "rules"] else "abacus"


def verbs(ruleset: str = "abacus") -> dict[str, Verb]:
    """The verbs of ``ruleset`` by key, the shared ones included."""
    return {**_VERBS.get(SHARED, {}), **_VERBS.get(ruleset, {})}


def find_verb(word: str, ruleset: str = "abacus") -> Verb:
    """The verb ``word`` names: its key, an alias, or a unique prefix of a key."""
    known = verbs(ruleset)
    aliases = {**_ALIASES.get(SHARED, {}), **_ALIASES.get(ruleset, {})}
    folded = word.casefold()
    key = aliases.get(folded, folded)
    if key in known:
        return known[key]
    hits = sorted(k for k in known if k.startswith(folded))
    if len(hits) == 1:
        return known[hits[0]]
    if hits:
        raise UsageError(f"{word!r} could be {', '.join(hits)}")
    raise UsageError(f"unknown command {word!r}{suggest(word, [*known, *aliases])}; type help for the list")


class Parsed(BaseModel):
    """A command read from a line: the verb's key and its canonical arguments."""

    model_config = ConfigDict(frozen=True)

    verb: str
    args: Args
    # what the command changed of the narrator's deck (rows drawn without repeats)
    deck: dict[str, list[str]] = {}


def parse_line(line: str, state: Any, ruleset: str = "abacus") -> Parsed:
    words = split_line(line)
    if not words:
        raise UsageError("empty command")
    verb = find_verb(words[0], ruleset)
    args = verb.parse(Words(words[1:], verb.usage()), state)
    return Parsed(verb=verb.key, args=args)
