"""How each ruleset is played: the hooks the session, the console and the REPL call.

The play layer is shared by every ruleset: the save file, undo and replay, the
console, the REPL. What differs is gathered here per ruleset: the module that
registers its verbs, the lines shown after each change (exact odds, what the
rules say is due), the status and the toolbar, the narration of its events,
and how its own event kinds read. A ruleset's play module builds a
:class:`PlayHooks` and registers it; :func:`hooks_for` imports it on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from wyrd.rules.dice import Dice

__all__ = ["Follower", "PlayHooks", "hooks_for", "register_hooks"]

# before, after, the command's events, the narration's own dice -> the events to add
Teller = Callable[[Any, Any, list[dict[str, Any]], Dice], list[dict[str, Any]]]

# The module that registers each ruleset's verbs and hooks when imported.
_MODULES = {
    "abacus": "wyrd.play.kits.abacus.kit",
    "wolden": "wyrd.play.kits.wolden.kit",
    "feat": "wyrd.play.kits.feat.kit",
    "lots": "wyrd.play.kits.lots.kit",
}


def _nothing(state: Any) -> list[str]:
    return []


class Follower(Protocol):
    """Where a session stands in another ruleset's story (its scenario, the scenes played).

    The session makes one with :attr:`PlayHooks.follow` (from nothing, or from a
    snapshot), shows it every command it applies or replays, and hands it to the
    verbs in :attr:`~wyrd.play.engine.storyplay.PlayContext.follower`; so it is rebuilt by replay
    like the rules state, and undo takes its progress back too.
    """

    def observe(self, verb: str, args: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> None: ...

    def snapshot(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class PlayHooks:
    """What the shared play layer needs to know of one ruleset."""

    ruleset: str
    # lines shown after every change: exact odds of an open roll, what is due next
    hints: Callable[[Any], list[str]] = _nothing
    # more such lines from the state and the story follower (whom each enemy goes for this round)
    follower_hints: Callable[[Any, Any], list[str]] = lambda state, follower: []
    # `status`: the whole table at a glance
    status: Callable[[Any], list[str]] = _nothing
    # the REPL's bottom bar, one line
    toolbar: Callable[[Any], str] = lambda state: ""
    # `pc` / `pc NAME`: character sheets (None: everyone)
    sheet: Callable[[Any, str | None], list[str]] = lambda state, name: []
    # narration of a command's events (None: the events speak for themselves)
    tell: Teller | None = None
    # how the ruleset's own event kinds read: kind -> event -> text
    texts: Mapping[str, Callable[[dict[str, Any]], str]] = field(default_factory=dict)
    # a story follower, new (None) or from its snapshot (None: the ruleset follows no story)
    follow: Callable[[Mapping[str, Any] | None], Follower] | None = None
    # -- for the front-ends (wyrd.play.frontends): nothing here names a front-end or a library --
    # the style name of each own kind's line (good, bad, wyrd, scene ...): kind -> event -> style
    styles: Mapping[str, Callable[[dict[str, Any]], str]] = field(default_factory=dict)
    # lines when play begins, from the state and whether a story is followed (how to make a character)
    opening: Callable[[Any, bool], list[str]] = lambda state, story: []
    # lines after a change, knowing its events (None: `hints`); in place of hints and follower_hints
    hints_after: Callable[[Any, Sequence[Mapping[str, Any]]], list[str]] | None = None
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


_HOOKS: dict[str, PlayHooks] = {}


def register_hooks(hooks: PlayHooks) -> PlayHooks:
    _HOOKS[hooks.ruleset] = hooks
    return hooks


def hooks_for(ruleset: str) -> PlayHooks:
    """The play hooks of ``ruleset``, importing its play module (and so its verbs) once."""
    if ruleset not in _HOOKS:
        module = _MODULES.get(ruleset)
        if module is None:
            raise LookupError(f"no way to play the ruleset {ruleset!r} yet")
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            raise LookupError(f"the ruleset {ruleset!r} cannot be played yet") from None
    return _HOOKS.get(ruleset) or register_hooks(PlayHooks(ruleset=ruleset))
