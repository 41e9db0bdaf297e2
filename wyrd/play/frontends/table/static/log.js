// The story log: the host's numbered entries in order, each shown once, the narration streamed
// as it is written, and what was said to this seat alone (refusals, looks) marked as such.

import { lineElement, shown } from "./lines.js";

export class StoryLog {
  constructor(list) {
    this.list = list;
    this.last = 0; // the largest entry number held
    // The largest entry held whole, its narration told: what a reconnecting seat asks to follow, so an
    // entry whose narration was cut off by a drop is sent again, narration and all, and replaces it.
    this.complete = 0;
    this.wholeUpTo = 0; // entries up to this one are sent whole on joining (their narration in their lines)
    this.streams = new Map(); // n -> the element narration streams into
    // The log keeps to its newest line unless the player has scrolled back to read; the panels
    // around it may change its height, so that is followed too.
    this.stuck = true;
    this.shownTop = 0; // where the page last scrolled the log itself
    list.addEventListener("scroll", () => {
      if (list.scrollHeight - list.scrollTop - list.clientHeight < 48) this.stuck = true;
      else if (list.scrollTop < this.shownTop - 4) this.stuck = false; // the player scrolled back
    });
    new ResizeObserver(() => this._end()).observe(list);
  }

  _end() {
    if (!this.stuck) return;
    this.list.scrollTop = this.list.scrollHeight;
    this.shownTop = this.list.scrollTop;
  }

  /** Forget everything (a new seat at a new table). */
  clear() {
    this.list.replaceChildren();
    this.last = 0;
    this.complete = 0;
    delete this.list.dataset.told;
    this.streams.clear();
  }

  _follow(add) {
    add();
    this._end();
  }

  /** A numbered entry from the host; one already held (a resend after a reconnect) is ignored. */
  addEntry(msg) {
    const n = Number(msg.n);
    if (!Number.isSafeInteger(n) || n <= this.complete) return false;
    if (n <= this.last) {
      // held, but its narration never came (the connection dropped): the host's whole entry replaces it
      for (const old of this.list.querySelectorAll(`li[data-n="${n}"], li[data-stream="${n}"]`)) old.remove();
      this.streams.delete(n);
    }
    this.last = Math.max(this.last, n);
    if (n <= this.wholeUpTo) this._told(n);
    const item = document.createElement("li");
    item.className = "entry";
    item.dataset.n = String(n);
    if (msg.line) {
      const head = document.createElement("p");
      head.className = "said";
      if (msg.by) {
        const who = document.createElement("span");
        who.className = "by";
        who.textContent = shown(msg.by);
        head.append(who);
      }
      const said = document.createElement("span");
      said.className = "cmd";
      said.textContent = shown(msg.line);
      head.append(said);
      if (msg.typed || msg.physical) {
        const badge = document.createElement("span");
        badge.className = "badge physical";
        badge.textContent = "physical dice";
        head.append(" ", badge);
        item.classList.add("physical");
      }
      item.append(head);
    }
    for (const line of Array.isArray(msg.lines) ? msg.lines : []) item.append(lineElement(line));
    this._follow(() => {
      // Narration streamed for this entry is in its own lines now, as a seat that reconnects sees it.
      const stream = this.streams.get(n);
      if (stream && !stream.classList.contains("after")) {
        stream.remove();
        this.streams.delete(n);
      }
      this.list.append(item);
    });
    return true;
  }

  /** Entry ``n`` is whole, its narration told; the log says so (``data-told``) for whoever waits on it. */
  _told(n) {
    this.complete = Math.max(this.complete, n);
    this.list.dataset.told = String(this.complete);
  }

  _stream(n) {
    let item = this.streams.get(n);
    if (!item) {
      item = document.createElement("li");
      item.className = "entry stream";
      item.dataset.stream = String(n);
      // The narration of an entry already shown follows it; one still being written precedes it.
      if (n <= this.last) item.classList.add("after");
      item.setAttribute("aria-busy", "true");
      item.append(lineElement({ text: "", style: "narration" }));
      this.streams.set(n, item);
      this._follow(() => this.list.append(item));
    }
    return item;
  }

  /** A chunk of narration as the narrator writes it. */
  prose(n, chunk) {
    const item = this._stream(Number(n));
    if (item.dataset.finished) return;
    this._follow(() => item.lastElementChild.append(shown(chunk)));
  }

  /** The narration finished (its final lines) or withdrawn (the table's lines in its place). */
  proseEnd(n, lines, withdrawn) {
    if (!withdrawn) this._told(Number(n));
    const item = this._stream(Number(n));
    item.dataset.finished = "1";
    item.removeAttribute("aria-busy");
    if (withdrawn) item.classList.add("withdrawn");
    const final = (Array.isArray(lines) ? lines : []).map((line) => lineElement(line));
    const entry = this.list.querySelector(`li.entry[data-n="${Number(n)}"]:not(.stream)`);
    if (entry && item.classList.contains("after")) {
      // Narration of an entry already shown joins that entry, as a seat that reconnects reads it.
      this._follow(() => {
        entry.append(...final);
        item.remove();
        this.streams.delete(Number(n));
      });
    } else if (final.length) {
      this._follow(() => item.replaceChildren(...final));
    }
  }

  /** What the host said to this seat alone: shown, never numbered (other seats don't see it). */
  addLocal(lines, kind, line) {
    const item = document.createElement("li");
    item.className = "entry local " + (["refused", "digest", "notice"].includes(kind) ? kind : "reply");
    if (kind === "digest") {
      const head = document.createElement("p");
      head.className = "said";
      head.textContent = "While you were away";
      item.append(head);
    } else if (line) {
      const head = document.createElement("p");
      head.className = "said";
      const who = document.createElement("span");
      who.className = "by";
      who.textContent = kind === "refused" ? "Only you see this" : "For you";
      const said = document.createElement("span");
      said.className = "cmd";
      said.textContent = shown(line);
      head.append(who, said);
      item.append(head);
    }
    for (const l of lines) item.append(lineElement(l));
    this._follow(() => this.list.append(item));
  }
}
