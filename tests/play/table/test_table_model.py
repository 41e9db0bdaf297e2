"""``wyrd host --model``: a language model tells the shared table's story (issue 20, point 2, with
issue 19): the host's narration goes to every seat, after the truth, and is saved with the game.

A real ``wyrd host`` process narrates through the OpenAI provider against the canned
OpenAI-compatible server of bench/ (no network, no weights); a ``wyrd join`` process is the seat.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("langchain_openai")

from bench.fake_openai import FakeServer
from tests.play.table_page.realhost import Host, JoinSeat
from wyrd.play.engine.session import Session

CALM = "Fog settles over the green, and the lanterns sway on their strings."


def test_a_host_named_a_model_has_it_tell_every_seat_the_story(tmp_path: Path) -> None:
    model = FakeServer(replies=[CALM]).start()
    host = Host(tmp_path, "--story", "hollow-fair", "--seed", "3", "--model", "openai:fake",
                "--base-url", model.url)
    try:
        seat = JoinSeat(tmp_path / "bea", host.link, "Bea")
        seat.type("pc take all")
        seat.type("scene")
        shown = seat.leave()
    finally:
        host.close()
        model.stop()
    assert model.requests  # the host asked the model ...
    assert any(line == CALM for line in shown)  # ... and the seat was told its words
    session = Session.resume(host.save)
    try:
        assert session.save is not None
        told = [event for record in session.save.live_commands() for event in record.events
                if event["kind"] == "narration" and event["text"] == CALM]
    finally:
        session.close()
    assert told and all("fallback" not in event for event in told)  # saved as the model's, with the game
