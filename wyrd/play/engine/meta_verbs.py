"""Verbs that change nothing: help, undo, log, status, pregens, quit, and the narrator's looks.

The looks (``look``, ``rules``, ``exits``, ``turn``) are answered by each ruleset's kit
(:class:`~wyrd.play.engine.kits.PlayHooks`); ``recap`` reads the save. They are
registered in :data:`~wyrd.play.engine.verbs.SHARED`, which every kit's table includes
(so ``help`` lists them and completion knows them), and change no rules state;
:mod:`wyrd.play.frontends.console` carries them out.
"""

from __future__ import annotations

import shlex
from typing import Any

from wyrd.play.engine.verbs import SHARED, Args, Verb
from wyrd.play.engine.words import Words

__all__: list[str] = []


class _Meta(Verb):
    changes = False


@SHARED.register
class Help(_Meta):
    """help [VERB]

    List the commands, or show how one is used.
    """

    key = "help"
    aliases = ("?",)
    completes = ("verb",)

    def parse(self, words: Words, state: Any) -> Args:
        word = words.take_optional()
        words.done()
        return {"verb": word}


@SHARED.register
class Undo(_Meta):
    """undo

    Take back the last command. It stays in the save's audit trail (see `log all`).
    A die once rolled stays rolled: the same command typed again gets the same faces.
    """

    key = "undo"


@SHARED.register
class Log(_Meta):
    """log [all]

    The story so far, one line per event; `log all` includes undone commands.
    """

    key = "log"

    def parse(self, words: Words, state: Any) -> Args:
        every = words.keyword("all")
        words.done()
        return {"all": every}


@SHARED.register
class Status(_Meta):
    """status

    The scene, its pool, the open roll and its odds, and every character's points.
    """

    key = "status"
    aliases = ("st",)


@SHARED.register
class Pregens(_Meta):
    """pregens

    The story's pregenerated characters, each with their whole sheet and whether
    someone has taken them yet: read them before `pc take NAME` (or `pc take all`).
    """

    key = "pregens"


@SHARED.register
class Challenges(_Meta):
    """challenges

    The challenges of the scene, their values and whether they are still open.
    """

    key = "challenges"


@SHARED.register
class Look(_Meta):
    """look

    The scene again, as the story frames it: its title, where it is, what the story
    says of it, who is present, what stands in the way and what failing costs.
    """

    key = "look"
    aliases = ("l",)


@SHARED.register
class Rules(_Meta):
    """rules

    The text of every stage rule in force now, and what each one costs.
    """

    key = "rules"


@SHARED.register
class Exits(_Meta):
    """exits

    Where the story can go from here: each way on, what opens it, and which are open now.
    """

    key = "exits"


@SHARED.register
class Turn(_Meta):
    """turn

    Whose move it is, and who has not acted yet this scene or round. Nothing
    enforces it: the table may play in any order it likes.
    """

    key = "turn"
    aliases = ("who",)


@SHARED.register
class Odds(_Meta):
    """odds COMMAND

    The chances of a command that rolls, shown before any die is cast: `odds check
    Tam ingenuity vs 6`. Nothing is rolled, saved or changed.
    """

    key = "odds"

    def parse(self, words: Words, state: Any) -> Args:
        line = words.until()
        if not line:
            raise words.fail("say which command to weigh: odds COMMAND")
        return {"line": shlex.join(line)}


@SHARED.register
class Recap(_Meta):
    """recap

    What has happened in this scene so far (between scenes: in the last one).
    """

    key = "recap"


@SHARED.register
class Export(_Meta):
    """export FILE.md [--force]

    Write the story so far as a Markdown journal, every mechanical change included.
    A file that exists is replaced only with --force; a save never is.
    """

    key = "export"

    def parse(self, words: Words, state: Any) -> Args:
        path = words.take("FILE")
        flag = words.take_optional()
        if flag is not None and flag.casefold() not in ("--force", "force"):
            raise words.fail(f"{flag!r} is not --force")
        words.done()
        return {"path": path, "force": flag is not None}


@SHARED.register
class Save(_Meta):
    """save

    Everything is saved as it happens; this says where.
    """

    key = "save"


@SHARED.register
class NarratorVerb(_Meta):
    """narrator [table|llm|readings [on|off]]

    Who tells the story: the offline tables, or the language model given with
    `wyrd play --model` (the tables still speak whenever it fails or is slow).
    Alone, says which is in use.

    With the model, each answer of `ask`, each twist and each `inspire` also gets
    "One reading: ...", a sentence or two of what it might mean here: a suggestion
    to take or leave, after the dice, deciding nothing. `narrator readings off`
    stops them, `narrator readings on` brings them back (the setting `readings`
    in the config file's [narrator] says which a game starts with).
    """

    key = "narrator"
    completes = ("table",)

    def parse(self, words: Words, state: object) -> Args:
        which = words.take_optional()
        readings = None
        if which is not None and which.casefold() == "readings":
            switch = words.take_optional()
            if switch is not None and switch.casefold() not in ("on", "off"):
                raise words.fail(f"{switch!r} is neither on nor off")
            readings, which = (switch.casefold() if switch else "say"), None
        words.done()
        if which is not None and which.casefold() not in ("table", "llm"):
            raise words.fail(f"{which!r} is neither table, llm nor readings")
        return {"use": which.casefold() if which else None, "readings": readings}


@SHARED.register
class Quit(_Meta):
    """quit

    Leave the game (everything is already saved; `wyrd resume` picks it up).
    """

    key = "quit"
    aliases = ("exit",)
