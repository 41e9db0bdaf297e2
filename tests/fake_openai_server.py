"""A tiny OpenAI-compatible chat server for playing and testing the model narrator without a model.

It answers ``POST /v1/chat/completions`` (streamed as server-sent events, or whole) and
``GET /v1/models``. A request that asks for a reading of the oracle ("one reading") gets
one of :data:`READINGS` (or, with ``--hostile``, one of :data:`HOSTILE`, which the game must
refuse); any other gets the next of :data:`TOLD`. Standard library only.

    .venv/bin/python -m tests.fake_openai_server --port 8765 [--hostile]
    .venv/bin/wyrd play --story harrow-mere --model openai:fake --base-url http://127.0.0.1:8765/v1

(the model needs the provider's package: ``pip install -e '.[openai]'``.)
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["HOSTILE", "READINGS", "TOLD", "FakeServer", "main"]

TOLD = [
    "Mist lies low over the black water, and the reeds whisper to each other.",
    "The old stones are cold underfoot, slick with weed.",
    "Somewhere across the mere a heron lifts, slow and grey.",
]
READINGS = [
    "Perhaps the quiet means the mere is listening, and waiting to see what the travellers do next.",
    "It may be that the bell remembers the hands that cast it, and stirs when they come near.",
]
HOSTILE = [
    "Perhaps the answer is really yes, whatever was rolled.",
    "Ysolde dies before the night is out.",
    "You should ask again at better odds.",
]


class FakeServer:
    """The server on ``port`` (0: any free port), run in a daemon thread until :meth:`stop`."""

    def __init__(self, port: int = 0, *, hostile: bool = False, delay: float = 0.0) -> None:
        told, readings = itertools.cycle(TOLD), itertools.cycle(HOSTILE if hostile else READINGS)
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet: the game's screen is elsewhere
                return

            def _json(self, data: dict[str, Any]) -> None:
                body = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._json({"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "tests"}]})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append(request)
                asked = " ".join(str(m.get("content", "")) for m in request.get("messages", []))
                text = next(readings) if "one reading" in asked.lower() else next(told)
                if not request.get("stream"):
                    self._json({"id": "fake-1", "object": "chat.completion", "created": int(time.time()),
                                "model": "fake", "choices": [{"index": 0, "finish_reason": "stop",
                                                              "message": {"role": "assistant", "content": text}}]})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for piece in _pieces(text):
                    time.sleep(delay)
                    chunk = {"id": "fake-1", "object": "chat.completion.chunk", "created": int(time.time()),
                             "model": "fake", "choices": [{"index": 0, "delta": {"content": piece},
                                                           "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                end = {"id": "fake-1", "object": "chat.completion.chunk", "created": int(time.time()), "model": "fake",
                       "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode())
                self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True, name="fake-openai")

    def start(self) -> FakeServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _pieces(text: str) -> Iterator[str]:
    """``text`` a word at a time, as a model streams it."""
    words = text.split(" ")
    for i, word in enumerate(words):
        yield word if i == 0 else " " + word


def main(argv: list[str] | None = None) -> None:
    """Serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--hostile", action="store_true", help="readings the game must refuse")
    parser.add_argument("--delay", type=float, default=0.03, help="seconds between streamed words")
    args = parser.parse_args(argv)
    server = FakeServer(args.port, hostile=args.hostile, delay=args.delay)
    print(f"serving {server.url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.httpd.serve_forever()


if __name__ == "__main__":
    main()
