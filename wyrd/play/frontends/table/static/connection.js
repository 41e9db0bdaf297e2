// The seat's connection to the host: joins with the invitation or comes back with the seat's
// token, reconnects by itself after a drop, and resends a line the host has not answered
// (with the same id, so the host applies it once).

const SEAT_KEY = "wyrd.table.seat";

function randomId() {
  // crypto.randomUUID needs a secure context; a table on a LAN is served over plain http.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The seat token this tab holds (sessionStorage), or the last this browser held (localStorage). */
export function storedSeat() {
  try {
    return sessionStorage.getItem(SEAT_KEY) || localStorage.getItem(SEAT_KEY) || "";
  } catch {
    return "";
  }
}

function storeSeat(token) {
  for (const store of [sessionStorage, localStorage]) {
    try {
      if (token) store.setItem(SEAT_KEY, token);
      else store.removeItem(SEAT_KEY);
    } catch {
      // private browsing may refuse storage: the seat then lasts as long as the page
    }
  }
}

export class Connection {
  /** handlers: message(msg), state(name, detail) with name connecting | open | lost | refused. */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.invite = "";
    this.name = "";
    this.seat = storedSeat();
    this.after = () => 0;
    this.socket = null;
    this.welcomed = false;
    this.caughtUp = false;
    this.pending = new Map(); // line id -> text, until the host answers it
    this.tries = 0;
    this.timer = 0;
    this.stopped = false;
    this.wait = 0; // after a "rate" or "full" refusal: how long to wait before coming back (ms)
    window.addEventListener("online", () => this.soon(0));
  }

  /** Join: with an invitation (a new seat, named) or the stored seat token (a returning seat). */
  start({ invite = "", name = "", after = () => 0 } = {}) {
    this.invite = invite;
    this.name = name;
    this.after = after;
    this.stopped = false;
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    if (this.socket) return;
    this.welcomed = false;
    this.handlers.state("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (err) {
      this.handlers.state("refused", String(err && err.message ? err.message : err));
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      const hello = this.seat && !this.invite
        ? { type: "hello", seat: this.seat, after: this.after() }
        : { type: "hello", invite: this.invite, name: this.name };
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      this.receive(msg);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      const wait = this.wait;
      this.wait = 0;
      if (!wait) this.handlers.state("lost");
      this.soon(wait || Math.min(500 * 2 ** this.tries, 10000));
      this.tries += 1;
    });
  }

  soon(delay) {
    if (this.stopped || this.socket) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  receive(msg) {
    if (msg.type === "welcome") {
      this.welcomed = true;
      this.caughtUp = false;
      if (typeof msg.name === "string") this.name = msg.name;
      this.tries = 0;
      if (typeof msg.seat === "string" && msg.seat) this.seat = msg.seat; // sent to a new seat only
      if (this.seat) storeSeat(this.seat);
      this.invite = ""; // from now on the seat's own token brings it back
    } else if (msg.type === "error") {
      if (msg.code === "rate" || msg.code === "full") {
        // Too many messages, or too many seats connected: the host will take us back in a while.
        // Lines not yet answered are resent then (each applies once).
        this.handlers.state("waiting", String(msg.reason || "the table is busy"));
        this.wait = msg.code === "rate" ? 2000 : Math.min(5000 * 2 ** this.tries, 60000);
        return;
      }
      // The host refused this connection (a revoked or unknown seat, a wrong invitation): don't knock
      // again by ourselves; the player may try again.
      this.stopped = true;
      if (["unknown_seat", "seat_unknown", "revoked"].includes(msg.code)) {
        this.seat = ""; // a token the host no longer knows is forgotten
        storeSeat("");
      }
      this.handlers.state("refused", String(msg.reason || "the host closed the connection"));
    }
    if (msg.id != null && ["log", "refused", "reply", "duplicate", "done"].includes(msg.type)) {
      this.pending.delete(msg.id);
    }
    if (msg.type === "log" && msg.by === this.name) {
      for (const [id, text] of this.pending) if (text === msg.line) this.pending.delete(id);
    }
    this.handlers.message(msg);
    if (msg.type === "view" && this.welcomed && !this.caughtUp) {
      this.caughtUp = true;
      // Caught up: lines sent while away go now (the host applies an id it has seen only once).
      for (const [id, text] of this.pending) this.raw({ type: "line", id, text });
      this.handlers.state("open");
    }
  }

  raw(msg) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.welcomed) {
      this.socket.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Send a line of play; kept until answered and resent after a reconnect. */
  line(text) {
    const id = randomId();
    this.pending.set(id, text);
    this.raw({ type: "line", id, text });
    return id;
  }

  /** Ask for completions of the line up to the cursor; the answer carries the same id. */
  complete(text, cursor) {
    const id = randomId();
    return this.raw({ type: "complete", id, text: text.slice(0, cursor), cursor }) ? id : "";
  }

  retry() {
    this.stopped = false;
    this.tries = 0;
    this.open();
  }
}
