"""Quitting while a model's reply streams is clean (issue 19, point 1 and point 4).

Seen once at exit: "FATAL: exception not rethrown". The narrator streams in a daemon thread;
a stream it gives up on (Ctrl-C, a timeout, a refusal) went on in that thread until its next
chunk, and a daemon thread still inside the model's code when the interpreter finalizes is
killed there: through native frames that catch everything (pydantic-core calling back into
Python) that aborts the process. Now every stream given up on is told to stop, and quitting
(``LLMNarrator.close``, ``Session.close``, and the interpreter's exit as a last resort) stops
them and waits for them to end. The model here is endless, so a stream ends only when stopped.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult

from tests.oracle.test_llm_narrator import told
from wyrd.oracle.narrators.llm import LLMNarrator
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

ROOT = Path(__file__).resolve().parents[2]


class Endless(BaseChatModel):
    """Streams "Rain falls. " for ever, a chunk every ``pause`` seconds (a slow server, never done)."""

    pause: float = 0.3

    @property
    def _llm_type(self) -> str:
        return "endless"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        raise NotImplementedError("streams only")

    def _stream(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        while True:
            yield ChatGenerationChunk(message=AIMessageChunk(content="Rain falls. "))
            time.sleep(self.pause)


def _workers(besides: Collection[threading.Thread] = ()) -> list[threading.Thread]:
    """The narrator's stream workers alive now (other than ``besides``: those of earlier tests)."""
    return [t for t in threading.enumerate() if t.name == "wyrd-llm-narrator" and t.is_alive() and t not in besides]


def _interrupting(_: str) -> None:
    raise KeyboardInterrupt


def test_close_stops_a_stream_given_up_on() -> None:
    """Ctrl-C while the model speaks: the tables tell the moment, and closing leaves no stream running."""
    earlier = set(_workers())
    narrator = LLMNarrator(Endless(), on_text=_interrupting, total_timeout=30.0)
    assert told(narrator).fallback_reason == "interrupted: by the player"
    assert narrator.close(timeout=10.0)
    assert narrator.streaming == 0 and _workers(earlier) == []


def test_quitting_a_session_stops_its_models_streams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    earlier = set(_workers())
    session = Session.new(tmp_path / "g.wyrd", seed=21, story="hollow-fair", ruleset="abacus")
    narrator = LLMNarrator(Endless(), on_text=_interrupting, total_timeout=30.0)
    session.teller.use_llm(narrator)
    out = Console(session, tmp_path / "g.wyrd").handle("pc take all")
    assert any(e.kind == "narration" and e["fallback"] for e in out.events)
    session.close()
    assert narrator.streaming == 0 and _workers(earlier) == []


EXITING = textwrap.dedent("""
    import atexit, sys, threading
    # Registered first, so it runs last (atexit is last in, first out): after the narrator's own.
    atexit.register(lambda: print("left running:", sum(t.name == "wyrd-llm-narrator" and t.is_alive()
                                                        for t in threading.enumerate()), flush=True))
    from tests.oracle.test_llm_quit import Endless, _interrupting
    from tests.oracle.test_llm_narrator import told
    from wyrd.oracle.narrators.llm import LLMNarrator

    narrator = LLMNarrator(Endless(), on_text=_interrupting, total_timeout=30.0)
    print(told(narrator).fallback_reason, flush=True)
    sys.exit(0)  # quit at once, the stream given up on still running, nobody closing the narrator
""")


def test_leaving_the_interpreter_mid_stream_stops_the_stream_first(tmp_path: Path) -> None:
    """Issue 19: the interpreter's exit stops a stream still running before it finalizes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WYRD_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", EXITING], capture_output=True, text=True, env=env, timeout=120,
                          check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "interrupted: by the player" in done.stdout
    assert "left running: 0" in done.stdout
    assert "FATAL" not in done.stderr and "Traceback" not in done.stderr
