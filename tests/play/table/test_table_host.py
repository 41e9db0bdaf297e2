"""``wyrd host`` as people run it: a real process, killed and resumed; its webhook; ``wyrd join``'s REPL.

Issue 20, points 1, 3, 5, 6 and 9.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from queue import Queue
from typing import Any

from tests.play.table.tablekit import Seat, open_table, serving, table_client

ROOT = Path(__file__).resolve().parents[3]


def _host(*args: str, home: Path) -> tuple[subprocess.Popen[str], str]:
    """A `wyrd host` process serving only (no prompt), and the link it printed."""
    env = {**os.environ, "WYRD_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "wyrd", "host", *args, "--port", "0", "--no-repl", "--no-qr"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            env=env, cwd=ROOT)
    assert proc.stdout is not None
    for line in proc.stdout:
        if "#invite=" in line:
            return proc, line.strip()
    raise AssertionError(f"no invitation: {proc.stderr.read() if proc.stderr else ''}")


class SyncSeat:
    """A seat over a real WebSocket (the websockets library's blocking client)."""

    def __init__(self, link: str) -> None:
        from websockets.sync.client import connect

        from wyrd.play.frontends.table.client import parse_link

        self.invitation = parse_link(link)
        self.ws = connect(self.invitation.ws_url, open_timeout=30).__enter__()
        self.log: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
        if message["type"] == "log":
            self.log.append(message)
        elif message["type"] in ("prose_withdrawn", "prose_done"):  # the narration joins its entry
            entry = next(e for e in reversed(self.log) if e["n"] == message["n"])
            entry["lines"] = entry["lines"] + message["lines"]
            entry["events"] = entry["events"] + message.get("events", [])
        return message

    def hello(self, **hello: Any) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "hello", **hello}))
        first = self.read()
        while first["type"] == "welcome" and self.read()["type"] != "view":
            pass
        return first

    def send(self, text: str, line_id: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "line", "id": line_id, "text": text}))
        while True:
            message = self.read()
            if message.get("id") == line_id and message["type"] in ("log", "refused", "reply", "duplicate"):
                while message["type"] == "log" and self.read()["type"] != "prose_done":
                    pass
                return message


def test_a_host_killed_and_resumed_takes_its_seats_back_with_nothing_missing(tmp_path: Path) -> None:
    """Issue 20, point 5: `wyrd host` killed with SIGKILL and restarted with --resume: the seats come back
    with their tokens, every entry a seat saw is there with the same number, and play goes on."""
    save = tmp_path / "g.wyrd"
    proc, link = _host("--story", "hollow-fair", "--save", str(save), "--seed", "21", home=tmp_path)
    try:
        bea = SyncSeat(link)
        token = bea.hello(invite=link.split("#invite=")[1], name="Bea")["seat"]
        for i, line in enumerate(["pc take all", "scene", 'attempt fair-unease by "Coral Vell"', "roll"]):
            assert bea.send(line, f"l{i}")["type"] == "log"
        seen = list(bea.log)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    proc, link2 = _host("--resume", str(save), home=tmp_path)
    try:
        assert link2.split("#invite=")[1] == link.split("#invite=")[1]  # the same invitation
        back = SyncSeat(link2)
        welcome = back.hello(seat=token, after=0)
        assert welcome["name"] == "Bea"
        assert back.log == seen
        assert back.send("roll", "l3")["type"] == "duplicate"
        assert back.send('draw "Coral Vell" 2', "l4")["n"] == seen[-1]["n"] + 1
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


class _Receiver(BaseHTTPRequestHandler):
    got: Queue[dict[str, Any]] = Queue()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.got.put({"type": self.headers["Content-Type"], "json": json.loads(body)})
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_the_webhook_is_called_when_it_becomes_someones_move(tmp_path: Path) -> None:
    """Issue 20, point 6: the host names a webhook; when whose move it is changes, the table posts
    Discord-compatible JSON ({"content": ...}) to it (a local HTTP receiver here)."""
    receiver = HTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    server, tokens = open_table(tmp_path / "g.wyrd")
    try:
        with table_client(server) as client, client.websocket_connect("/ws") as h:
            host = Seat(h)
            host.hello(seat=tokens["host"])
            assert host.send("webhook ftp://x")["type"] == "refused"
            assert host.send(f"webhook {url}")["type"] == "reply"
            host.send("pc take all")
            host.send("scene")
            posted = _Receiver.got.get(timeout=30)
        assert posted["type"] == "application/json"
        assert set(posted["json"]) == {"content"}
        assert posted["json"]["content"].startswith("The Hollow Fair: ")  # the title players read
        assert " ".join(host.view["turn"]) in posted["json"]["content"]
    finally:
        receiver.shutdown()


def test_wyrd_join_plays_as_a_seat_with_completion_toolbar_and_prompt(tmp_path: Path,
                                                                      monkeypatch: Any) -> None:
    """Issue 20, point 3: the terminal REPL as a seat of a remote table: lines go to the host, what every
    seat does is printed, Tab asks the host, the prompt and the toolbar come from the host's view."""
    import asyncio

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from wyrd.play.frontends.table.client import RemoteTable, invitation_mark, parse_link
    from wyrd.play.frontends.terminal.remote import RemoteCompleter, play_remote

    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    server, tokens = open_table(tmp_path / "g.wyrd")
    shown: list[dict[str, Any]] = []
    with serving(server) as port:
        link = f"http://127.0.0.1:{port}/#invite={tokens['invite']}"
        table = RemoteTable(parse_link(link), name="Bea", on_message=shown.append, keep=tmp_path / "seats.json")

        async def run() -> int:
            with create_pipe_input() as pipe:
                async def typing() -> None:
                    await table.connected.wait()
                    from prompt_toolkit.document import Document

                    found = [c async for c in RemoteCompleter(table).get_completions_async(
                        Document("pc ta"), None)]  # type: ignore[arg-type]
                    shown.append({"type": "test-completions", "items": [c.text for c in found]})
                    for line in ("pc take all", "scene"):
                        await table.line(line)
                    pipe.send_text("pregens\n")
                    await asyncio.sleep(0)
                    pipe.send_text("\x04")

                recorder = table.on_message
                task = asyncio.ensure_future(typing())
                status = await play_remote(table, input=pipe, output=DummyOutput(), history=False)
                await task
                del recorder
                return status

        assert asyncio.run(run()) == 0
    offered = next(m for m in shown if m["type"] == "test-completions")["items"]
    assert "take" in offered
    kept = json.loads((tmp_path / "seats.json").read_text())[f"http://127.0.0.1:{port}"]
    assert kept == {"seat": table.seat, "last": server.engine.last, "invited": invitation_mark(tokens["invite"])}
    assert table.view["prompt"] == "scene 1> "
    assert table.view["toolbar"]
    assert table.last == server.engine.last


def test_the_terminal_shows_who_did_what_and_marks_real_dice() -> None:
    """Issue 20, points 2 and 3: another seat's line is shown with its name; typed faces are marked."""
    from wyrd.play.frontends.terminal.remote import message_lines

    entry = {"type": "log", "by": "Cal", "line": "roll 4", "typed": True,
             "lines": [{"text": "Rolled 4.", "style": "good"}]}
    assert message_lines(entry, me="Bea") == [("class:info", "Cal: roll 4 (real dice)"), ("class:good", "Rolled 4.")]
    assert message_lines(entry, me="Cal") == [("class:good", "Rolled 4.")]
    assert message_lines({"type": "refused", "reason": "\x1b[31mno"}) == [("class:refused", "Refused: no")]


def test_the_terminal_seat_sets_the_storys_prose_apart_in_every_message_as_at_home() -> None:
    """Issue 19, point 1: prose is indented at a seat as in the REPL, whether it comes with what a
    command did (a twist's line in the log), settled after it, or in a reply."""
    from wyrd.play.frontends.terminal.prose import INDENT
    from wyrd.play.frontends.terminal.remote import message_lines

    told = {"text": "Salt crusts on every lantern glass.", "style": "narration"}
    plain = {"text": "The scene goes as expected.", "style": "info"}
    for kind in ("log", "prose_done", "reply"):
        lines = message_lines({"type": kind, "by": "Cal", "lines": [told, plain]}, me="Cal")
        assert lines == [("class:narration", INDENT + told["text"]), ("class:info", plain["text"])], kind


def test_a_seat_s_terminal_loads_neither_the_engine_nor_pydantic() -> None:
    """Issue 21, point 2: ``wyrd join`` shows what the host sends, so its first prompt waits for none
    of what the REPL at home imports (the console, the session, the rules, pydantic, sqlite3)."""
    code = ("import sys, wyrd.play.cli.main; "
            "from wyrd.play.frontends.table.client import RemoteTable, parse_link, seats_file; "
            "from wyrd.play.frontends.terminal.remote import run_remote; "
            "print(sorted(k for k in sys.modules if k.split('.')[0] in ('pydantic', 'sqlite3', 'yaml') "
            "or k.startswith(('wyrd.play.frontends.console', 'wyrd.play.frontends.view', "
            "'wyrd.play.frontends.terminal.repl', 'wyrd.play.engine.session', 'wyrd.play.engine.history', "
            "'wyrd.play.engine.reply', 'wyrd.rules.')))); "
            "print('prompt_toolkit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["[]", "True"]


def test_importing_the_command_line_loads_no_server_library() -> None:
    """Issue 20, point 9: none of the table's libraries is imported on the REPL's start path."""
    code = ("import sys, wyrd.play.cli.main as m; m.build_parser('play'); "
            "import wyrd.play.frontends.terminal.repl; "
            "print(sorted(k for k in sys.modules if k.split('.')[0] in "
            "('starlette', 'uvicorn', 'websockets', 'segno', 'httpx', 'anyio')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_a_kept_seat_is_used_only_for_the_table_whose_invitation_gave_it(tmp_path: Path) -> None:
    """Issue 20, points 3 and 5: ``wyrd join`` takes its seat back at the table that gave it, but a new
    game hosted at the same address (the default port) is another table: its invitation joins anew
    instead of being refused as an unknown seat."""
    from wyrd.play.frontends.table.client import RemoteTable, invitation_mark, parse_link

    keep = tmp_path / "seats.json"
    keep.write_text(json.dumps({"http://127.0.0.1:8420": {"seat": "S", "last": 5,
                                                            "invited": invitation_mark("first")}}))

    def seat(link: str) -> RemoteTable:
        return RemoteTable(parse_link(link), name="Bea", on_message=lambda message: None, keep=keep)

    again = seat("http://127.0.0.1:8420/#invite=first")
    assert (again.seat, again.last) == ("S", 5)
    assert again._hello() == {"type": "hello", "seat": "S", "after": 5}
    other = seat("http://127.0.0.1:8420/#invite=second")
    assert (other.seat, other.last) == (None, 0)
    assert other._hello() == {"type": "hello", "invite": "second", "name": "Bea"}
