"""What one message to the table led to: messages for its sender, for every seat, and what else to do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wyrd.play.frontends.cleaning import clean
from wyrd.play.frontends.table.seats import Seat

__all__ = ["Outcome", "refused", "reply"]


@dataclass
class Outcome:
    """Messages for the sender and for every seat, and what the server does besides."""

    private: list[dict[str, Any]] = field(default_factory=list)
    broadcast: list[dict[str, Any]] = field(default_factory=list)
    drop: list[int] = field(default_factory=list)  # seats revoked: their connections close
    webhook: tuple[str, str] | None = None  # (the host's webhook, its message): it is someone's move
    seat: Seat | None = None  # hello: the seat that joined
    error: str | None = None  # hello: why the seat was refused
    code: str = ""  # hello: the refusal's code (protocol.py: what a seat does about it)
    seats_changed: bool = False  # who holds what, or the host's settings, changed: tell every seat
    # After the broadcast: the entry's narration, told in the worker, each piece handed to every seat
    telling: Callable[[Callable[[list[dict[str, Any]]], None]], None] | None = None


def refused(client_id: str, reason: str) -> Outcome:
    """A line refused, told to its sender alone."""
    return Outcome(private=[{"type": "refused", "id": client_id, "reason": clean(reason)}])


def reply(client_id: str, *texts: str, style: str = "info") -> Outcome:
    """Lines for the sender alone."""
    return Outcome(private=[{"type": "reply", "id": client_id,
                             "lines": [{"text": clean(t), "style": style} for t in texts]}])
