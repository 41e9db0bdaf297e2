"""A tiny OpenAI-compatible chat server with canned replies, to play with a "model" and no network.

    python -m bench.fake_openai --port 8765 [--delay 0.08]
    wyrd play --story hollow-fair --model openai:fake --base-url http://127.0.0.1:8765/v1

It answers ``POST /v1/chat/completions`` (streamed as server-sent events, a word a chunk,
``--delay`` seconds apart, or whole when not streamed) with the replies of :data:`REPLIES` in
turn: ordinary prose, one the narration's checks refuse part-way (a death the dice never
dealt), and one broken off by the server mid-stream. The REPL should show each command's
result first, then the prose as it comes, and take back the refused and broken replies,
the tables speaking in their place (issue 19, point 1). A fixture, not part of the package.
"""

from __future__ import annotations

import argparse
import itertools
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["REPLIES", "serve"]

BREAK = "\x00break"  # the server drops the connection here

REPLIES = [
    "Lantern light pools on the wet green, and the fiddles scrape on without a pause.",
    "The crowd parts and closes again, and somewhere a child laughs too long. Ada dies in the mud.",
    "Straw figures lean over the stalls, their painted faces turned " + BREAK + " toward the hill.",
    "A cold wind moves through the awnings, and the smell of burnt sugar hangs in the air.",
]


def _chunk(content: str | None, finish: str | None = None) -> bytes:
    delta: dict[str, Any] = {} if content is None else {"role": "assistant", "content": content}
    body = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": "fake",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(body)}\n\n".encode()


def _words(text: str) -> Iterator[str]:
    first = True
    for word in text.split(" "):
        yield word if first else " " + word
        first = False


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked: a connection dropped mid-reply is an error, not an end
    replies: Iterator[str]
    delay: float
    lock = threading.Lock()

    def _send(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal is the game's
        pass

    def do_POST(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(size) or b"{}")
        with self.lock:
            reply = next(self.replies)
        if not request.get("stream"):
            body = json.dumps({"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
                               "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                   "role": "assistant", "content": reply.replace(BREAK, "")}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        for word in _words(reply):
            if word.strip() == BREAK:
                self.close_connection = True
                self.connection.shutdown(2)  # broken off mid-stream, the chunked body unfinished
                return
            self._send(_chunk(word))
            time.sleep(self.delay)
        self._send(_chunk(None, "stop"))
        self._send(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
        self.close_connection = True


def serve(port: int, delay: float = 0.08, replies: list[str] | None = None) -> ThreadingHTTPServer:
    """A server on 127.0.0.1:``port`` (0: any free port), not yet serving (call ``serve_forever``)."""
    handler = type("Handler", (_Handler,), {"replies": itertools.cycle(replies or REPLIES), "delay": delay})
    return ThreadingHTTPServer(("127.0.0.1", port), handler)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--delay", type=float, default=0.08, help="seconds between streamed words")
    args = parser.parse_args()
    server = serve(args.port, args.delay)
    print(f"serving on http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
