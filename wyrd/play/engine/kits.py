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


_HOOKS: dict[str, PlayHooks] = {}


def register_hooks(hooks: PlayHooks) -> PlayHooks:
    _HOOKS[hooks.ruleset] = hooks
    return hooks


def hooks_for(ruleset: str) -> PlayHooks:
    """The play hooks of ``ruleset``, importing its play module (and so its verbs) once."""
    if ruleset not in _HOOKS:
        from wyrd.rulesets import UnknownRuleset, find_ruleset

        try:
            module = find_ruleset(ruleset).kit  # the module that registers its verbs and hooks
        except UnknownRuleset:
            raise LookupError(f"no way to play the ruleset {ruleset!r} yet") from None
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            raise LookupError(f"the ruleset {ruleset!r} cannot be played yet") from None
    return _HOOKS.get(ruleset) or register_hooks(PlayHooks(ruleset=ruleset))
