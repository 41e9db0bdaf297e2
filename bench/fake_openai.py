"""A tiny OpenAI-compatible chat server with canned replies: a "model" with no network and no weights.

    python -m bench.fake_openai --port 8765 [--delay 0.08] [--hostile]
    wyrd play --story hollow-fair --model openai:fake --base-url http://127.0.0.1:8765/v1

(the model needs the provider's package: ``pip install -e '.[openai]'``.)

It answers ``GET /v1/models`` and ``POST /v1/chat/completions``, streamed as server-sent events (a
word a chunk, ``--delay`` seconds apart) or whole. A request for a reading of the oracle ("one
reading") gets the next of :data:`READINGS` (with ``--hostile``, of :data:`HOSTILE`, which the game
must refuse); any other request gets the next of :data:`REPLIES`: ordinary prose, one reply the
narration's checks refuse part-way (a death the dice never dealt), and one the server breaks off
mid-stream. The REPL should show each command's result first, then the prose as it comes, and take
back the refused and broken replies, the tables speaking in their place (issue 19, point 1). The
tests use it through :class:`FakeServer`. A fixture, not part of the package.
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

__all__ = ["BREAK", "HOSTILE", "READINGS", "REPLIES", "FakeServer", "main"]

BREAK = "\x00break"  # the server drops the connection here

REPLIES = [
    "Lantern light pools on the wet green, and the fiddles scrape on without a pause.",
    "The crowd parts and closes again, and somewhere a child laughs too long. Ada dies in the mud.",
    "Straw figures lean over the stalls, their painted faces turned " + BREAK + " toward the hill.",
    "A cold wind moves through the awnings, and the smell of burnt sugar hangs in the air.",
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


def _chunk(content: str | None, finish: str | None = None) -> bytes:
    delta: dict[str, Any] = {} if content is None else {"role": "assistant", "content": content}
    body = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()), "model": "fake",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(body)}\n\n".encode()


def _words(text: str) -> Iterator[str]:
    """``text`` a word at a time, as a model streams it."""
    for i, word in enumerate(text.split(" ")):
        yield word if i == 0 else " " + word


class FakeServer:
    """The server on 127.0.0.1:``port`` (0: any free port); :meth:`start` serves it from a daemon thread.

    ``replies`` replaces :data:`REPLIES`; every request's JSON body is kept in :attr:`requests`.
    """

    def __init__(self, port: int = 0, *, delay: float = 0.0, hostile: bool = False,
                 replies: list[str] | None = None) -> None:
        told = itertools.cycle(replies or REPLIES)
        readings = itertools.cycle(HOSTILE if hostile else READINGS)
        lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # chunked: a connection dropped mid-reply is an error, not an end

            def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal is the game's
                return

            def _whole(self, data: dict[str, Any]) -> None:
                body = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _send(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def do_GET(self) -> None:
                self._whole({"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "bench"}]})

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(size) or b"{}")
                asked = " ".join(str(m.get("content", "")) for m in request.get("messages", []))
                with lock:
                    server.requests.append(request)
                    reply = next(readings) if "one reading" in asked.lower() else next(told)
                if not request.get("stream"):
                    self._whole({"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                                 "model": "fake", "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                     "role": "assistant", "content": reply.replace(BREAK, "")}}]})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for word in _words(reply):
                    if word.strip() == BREAK:
                        self.connection.shutdown(2)  # broken off mid-stream, the chunked body unfinished
                        return
                    self._send(_chunk(word))
                    time.sleep(delay)
                self._send(_chunk(None, "stop"))
                self._send(b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
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


def main(argv: list[str] | None = None) -> None:
    """Serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--delay", type=float, default=0.08, help="seconds between streamed words")
    parser.add_argument("--hostile", action="store_true", help="readings the game must refuse")
    args = parser.parse_args(argv)
    server = FakeServer(args.port, delay=args.delay, hostile=args.hostile)
    print(f"serving on {server.url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.httpd.serve_forever()


if __name__ == "__main__":
    main()
