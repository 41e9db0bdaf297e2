"""The command language: each verb is a class whose docstring is its in-game help.

A verb reads its words into canonical arguments (plain JSON: names resolved,
numbers checked), and applies those arguments to the rules. Each kit keeps its
verbs in its own :class:`VerbTable`; the verbs every ruleset shares are in
:data:`SHARED`. A line is read once, into a :class:`Command` that holds the verb
found, and the session passes that on. The session saves
the canonical arguments, so a replay never depends on how a line was typed, and
``help VERB`` prints the verb's own docstring.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict

from wyrd.play.engine.words import UsageError, Words, split_line, suggest
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.play.engine.storyplay import PlayContext

__all__ = ["SHARED", "Args", "Command", "Parsed", "Verb", "VerbTable"]

Args = dict[str, Any]


class Verb:
    """One verb. Subclasses set ``key`` and implement ``parse`` and ``apply``.

    The first line of the docstring is the usage; more lines before the first blank
    one are the verb's other forms (``pc take NAME``); the rest is the help text.
    ``changes`` is False for verbs that only look (``pc``, ``log``): those are
    neither saved nor undone. A verb belongs to the :class:`VerbTable` it is
    registered in: a kit's own, or :data:`SHARED`.
    """

    key: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    changes: ClassVar[bool] = True
    # what the words after the verb are, for completion: "character", "challenge",
    # "ability", "type", "form", or a literal word
    completes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def usage(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or cls.key).splitlines()[0]

    @classmethod
    def forms(cls) -> list[str]:
        """Every form of the verb: the docstring's first paragraph, one form a line (the usage first)."""
        head = inspect.cleandoc(cls.__doc__ or cls.key).split("\n\n")[0]
        return [line.strip() for line in head.splitlines() if line.strip()]

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

    def parse(self, words: Words, state: Any) -> Args:
        words.done()
        return {}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        """Complete the arguments from the story before the command is applied and saved.

        Whatever is taken from the story goes into the arguments, so a replay
        needs neither the story file nor the dice that chose from it.
        """
        return args

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> Sequence[Event]:
        """Events the play layer adds to the rules' own (a postscript, the rules now evident).

        ``events`` are the rules' own, typed as the rules made them; what it returns is typed
        too (models of the ruleset's union, ``PlayHooks.events``), dumped only when saved.
        """
        return []

    def apply(self, state: Any, dice: Dice, args: Mapping[str, Any]) -> Any:
        """The rules' outcome (its ``state`` and typed ``events``)."""
        raise NotImplementedError


class Command(NamedTuple):
    """A line read once: the verb it names, found, and its canonical arguments."""

    verb: Verb
    args: Args

    @property
    def key(self) -> str:
        return self.verb.key


V = TypeVar("V", bound=Verb)


class VerbTable:
    """The verbs one kit's players may use, by key and alias; a kit's table includes :data:`SHARED`.

    A kit makes its own table and registers its verb classes with :meth:`register`
    (a class decorator); nothing else decides which ruleset a verb belongs to.
    """

    def __init__(self, *, shared: VerbTable | None = None) -> None:
        self._shared = shared
        self._own: dict[str, Verb] = {}
        self._aliases: dict[str, str] = {}

    def register(self, cls: type[V]) -> type[V]:
        verb = cls()
        self._own[cls.key] = verb
        for alias in cls.aliases:
            self._aliases[alias] = cls.key
        return cls

    def verbs(self) -> dict[str, Verb]:
        """Every verb by key, the shared ones included."""
        return {**(self._shared.verbs() if self._shared else {}), **self._own}

    def aliases(self) -> dict[str, str]:
        return {**(self._shared.aliases() if self._shared else {}), **self._aliases}

    def find(self, word: str) -> Verb:
        """The verb ``word`` names: its key, an alias, or a unique prefix of a key."""
        known = self.verbs()
        aliases = self.aliases()
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

    def parse(self, line: str, state: Any) -> Command:
        """Read ``line`` once: its verb, found, and its canonical arguments."""
        words = split_line(line)
        if not words:
            raise UsageError("empty command")
        verb = self.find(words[0])
        return Command(verb=verb, args=verb.parse(Words(words[1:], verb.usage()), state))


# The verbs every ruleset shares (help, undo, log ...): :mod:`wyrd.play.engine.meta_verbs`.
SHARED = VerbTable()


class Parsed(BaseModel):
    """A command as the save keeps it: the verb's key and its canonical arguments."""

    model_config = ConfigDict(frozen=True)

    verb: str
    args: Args
    # what the command changed of the narrator's deck (rows drawn without repeats)
    deck: dict[str, list[str]] = {}
    # the undone command whose faces this one rolled again (see wyrd.play.engine.rolled)
    again: int | None = None
