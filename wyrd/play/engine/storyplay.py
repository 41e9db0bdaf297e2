"""What the engine knows of following a story, whatever the ruleset.

Each kit follows its own story format (:class:`Follower`): the engine makes one
through the kit, shows it every command it applies or replays, snapshots it with
the state, and hands it to the verbs in :class:`PlayContext`. It never looks
inside. This module also says where stories are looked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.stories import BUNDLED

if TYPE_CHECKING:
    from wyrd.stories.formats import StoryInfo

__all__ = ["Follower", "PlayContext", "content_dirs", "list_stories"]


def content_dirs(extra: Sequence[Path] = ()) -> list[Path]:
    """Where stories are found: folders given (``--content``), the user's own, then the bundled ones."""
    from wyrd.play.engine.paths import data_dir

    return [*extra, data_dir() / "stories", Path(BUNDLED)]


def list_stories(dirs: Iterable[Path]) -> list[StoryInfo]:
    """Every story of every ruleset in ``dirs`` (read only when asked: the first prompt needs none)."""
    from wyrd.stories.formats import discover

    return discover([d for d in dirs if d.is_dir()])


class Follower(Protocol):
    """Where a session stands in its story (the story chosen, the scenes played, ...).

    The session makes one with :attr:`~wyrd.play.engine.kits.PlayHooks.follow` (from
    nothing, or from a snapshot), shows it every command it applies or replays, and
    hands it to the verbs in :attr:`PlayContext.follower`; so it is rebuilt by replay
    like the rules state, and undo takes its progress back too.
    """

    def observe(self, verb: str, args: Mapping[str, Any], events: Sequence[Event]) -> None: ...

    def snapshot(self) -> dict[str, Any]: ...


class PlayContext(NamedTuple):
    """What a verb may consult while preparing its arguments: never the save, never the screen."""

    state: Any  # the ruleset's own GameState
    dirs: list[Path]
    dice: Dice  # the story's own dice: their results go into the arguments, so they are not replayed
    # the kit's story follower (None: the kit follows no story)
    follower: Follower | None = None
