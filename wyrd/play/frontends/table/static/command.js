// The command line: the REPL's commands typed as at home, with the host's completion (Tab),
// the lines sent before (Up and Down), and buttons for the ruleset's common moves.

import { shown as plain } from "./lines.js";

const HISTORY_KEY = "wyrd.table.history";
const HISTORY_MAX = 200;

function loadHistory() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(HISTORY_KEY) || "[]");
    return Array.isArray(saved) ? saved.filter((s) => typeof s === "string") : [];
  } catch {
    return [];
  }
}

/** The text a completion puts in, where it starts (index into the line), and a note to show. */
function readItem(item, line, cursor) {
  const wordStart = line.slice(0, cursor).search(/\S*$/);
  if (typeof item === "string") return { text: plain(item), shown: plain(item), start: wordStart, note: "" };
  const text = plain(item && item.text != null ? item.text : "");
  let start = wordStart;
  // "start": where the completion begins, counted back from the cursor (prompt-toolkit's start_position)
  const back = Number.isInteger(item.start) ? item.start : item.start_position;
  if (Number.isInteger(back) && back <= 0) start = cursor + back;
  const shown = typeof item.display === "string" && item.display ? item.display : text;
  return { text, shown, start: Math.max(0, start), note: String(item.meta || item.note || "") };
}

/** The shortest time between two completion questions, in ms. */
const ASK_GAP = 150;

export class CommandLine {
  constructor({ form, input, list, moves, send, note, onSend, onComplete }) {
    Object.assign(this, { form, input, list, moves, send, note, onSend, onComplete });
    this.history = loadHistory();
    this.back = -1; // how far back in the history Up has gone (-1: the line being typed)
    this.draft = "";
    this.items = [];
    this.chosen = -1;
    this.asked = null; // the line and cursor the last completion was asked for
    this.tabLeaves = false; // after Esc, Tab moves on (the line never traps the keyboard)
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    input.addEventListener("keydown", (e) => this.key(e));
    input.addEventListener("input", () => {
      this.close();
      this.note.textContent = "";
      this.tabLeaves = false;
    });
    input.addEventListener("blur", () => this.close());
    list.addEventListener("mousedown", (e) => e.preventDefault()); // keep the focus in the line
    list.addEventListener("click", (e) => {
      const option = e.target.closest("[role=option]");
      if (option) this.accept(Number(option.dataset.index));
    });
    moves.addEventListener("click", (e) => {
      const button = e.target.closest("button");
      if (button) this.move(button.dataset.line || "", button.dataset.send === "1");
    });
  }

  enable(on) {
    this.input.disabled = !on;
    this.send.disabled = !on;
  }

  submit() {
    const text = this.input.value.trim();
    this.close();
    if (!text) return;
    if (this.history[this.history.length - 1] !== text) this.history.push(text);
    this.history = this.history.slice(-HISTORY_MAX);
    try {
      sessionStorage.setItem(HISTORY_KEY, JSON.stringify(this.history));
    } catch {
      // a full or closed storage only costs the history
    }
    this.back = -1;
    this.input.value = "";
    this.onSend(text);
  }

  move(line, sendNow) {
    if (sendNow) {
      this.onSend(line.trim());
      return;
    }
    this.input.value = line;
    this.input.focus();
    this.input.setSelectionRange(line.length, line.length);
  }

  /** The ruleset's common moves as buttons: [{label, line, send}] from the host. */
  setMoves(moves) {
    const list = Array.isArray(moves) ? moves : [];
    this.moves.replaceChildren(...list.filter((m) => m && m.label).map((m) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = plain(m.label);
      button.dataset.line = plain(m.line || "");
      if (m.send) button.dataset.send = "1";
      const hint = m.send ? `sends ${button.dataset.line}` : `types ${button.dataset.line}`;
      button.title = plain(m.title || hint);
      return button;
    }));
    this.moves.hidden = this.moves.childElementCount === 0;
  }

  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const open = !this.list.hidden;
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      const step = e.key === "ArrowUp" ? -1 : 1;
      if (open) this.choose((this.chosen + step + this.items.length) % this.items.length);
      else this.recall(-step);
    } else if (e.key === "Tab" && !e.shiftKey) {
      if (open) {
        e.preventDefault();
        this.accept(Math.max(this.chosen, 0));
      } else if (this.input.value.trim() && !this.tabLeaves) {
        e.preventDefault();
        this.ask();
      }
    } else if (e.key === "Escape") {
      if (open) {
        e.preventDefault();
        this.close();
      }
      this.tabLeaves = true;
    } else if (e.key === "Enter" && open && this.chosen >= 0) {
      e.preventDefault();
      this.accept(this.chosen);
    }
  }

  recall(step) {
    if (!this.history.length) return;
    if (this.back === -1) this.draft = this.input.value;
    const back = Math.min(Math.max(this.back + step, -1), this.history.length - 1);
    this.back = back;
    const text = back === -1 ? this.draft : this.history[this.history.length - 1 - back];
    this.input.value = text;
    this.input.setSelectionRange(text.length, text.length);
  }

  ask() {
    // At most one question every ASK_GAP ms (the host counts them against the connection's rate):
    // Tab pressed faster asks once, for the line as it is when the gap is over.
    const wait = (this.lastAsk || 0) + ASK_GAP - Date.now();
    clearTimeout(this.askTimer);
    if (wait > 0) {
      this.askTimer = setTimeout(() => this.ask(), wait);
      return;
    }
    this.lastAsk = Date.now();
    const cursor = this.input.selectionStart == null ? this.input.value.length : this.input.selectionStart;
    this.asked = { text: this.input.value, cursor, id: this.onComplete(this.input.value, cursor) };
  }

  /** The host's completions for the line as it was when asked; a line typed on since is left alone. */
  completions(items, id) {
    const asked = this.asked;
    if (!asked || (id && asked.id && id !== asked.id)) return; // an answer to an older question
    this.asked = null;
    if (asked.text !== this.input.value || !Array.isArray(items)) return;
    const read = items.map((item) => readItem(item, asked.text, asked.cursor)).filter((i) => i.text);
    if (read.length === 1) {
      this.put(read[0], asked);
      return;
    }
    if (!read.length) {
      this.note.textContent = "Nothing to complete there.";
      return;
    }
    // Fill in what every choice shares, then offer the choices.
    const start = read[0].start;
    if (read.every((i) => i.start === start)) {
      let common = read[0].text;
      for (const i of read) while (!i.text.startsWith(common)) common = common.slice(0, -1);
      if (common.length > asked.cursor - start) {
        this.put({ text: common, start }, asked, false);
        asked.cursor = start + common.length;
        asked.text = this.input.value;
      }
    }
    this.items = read.map((i) => ({ ...i, asked }));
    this.list.replaceChildren(...this.items.map((item, index) => {
      const option = document.createElement("li");
      option.id = `completion-${index}`;
      option.setAttribute("role", "option");
      option.dataset.index = String(index);
      const word = document.createElement("span");
      word.className = "word";
      word.textContent = plain(item.shown);
      option.append(word);
      if (item.note) {
        const note = document.createElement("span");
        note.className = "note";
        note.textContent = plain(item.note);
        option.append(" ", note);
      }
      return option;
    }));
    this.list.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    this.choose(-1);
  }

  put(item, asked, space = true) {
    const { text, cursor } = asked;
    const tail = text.slice(cursor);
    const gap = space && !/[=\s]$/.test(item.text) && !tail.startsWith(" ") ? " " : "";
    const line = text.slice(0, item.start) + item.text + gap + tail;
    this.input.value = line;
    const at = item.start + item.text.length + gap.length;
    this.input.setSelectionRange(at, at);
  }

  choose(index) {
    this.chosen = index;
    for (const option of this.list.children) {
      option.setAttribute("aria-selected", String(Number(option.dataset.index) === index));
    }
    if (index >= 0) this.input.setAttribute("aria-activedescendant", `completion-${index}`);
    else this.input.removeAttribute("aria-activedescendant");
  }

  accept(index) {
    const item = this.items[index];
    this.close();
    if (item) this.put(item, item.asked);
  }

  close() {
    this.items = [];
    this.chosen = -1;
    this.list.hidden = true;
    this.list.replaceChildren();
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }
}
