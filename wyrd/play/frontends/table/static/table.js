// The browser seat of a shared table: the page the host serves. It shows what the host sends
// (the story log, the table's panels) and sends what the player types; it knows no rule.

import { CommandLine } from "./command.js";
import { Connection, storedSeat } from "./connection.js";
import { commandsIn, fillFor, lineElement, showLines, showRows, shown } from "./lines.js";
import { StoryLog } from "./log.js";

const $ = (id) => document.getElementById(id);
const PANELS = ["frame", "turn", "toolbar", "hints", "sheets", "exits", "status"];
const NAME_KEY = "wyrd.table.name";

const socketUrl = new URL("ws", location.href);
socketUrl.protocol = socketUrl.protocol === "https:" ? "wss:" : "ws:";
socketUrl.hash = "";

const log = new StoryLog($("log"));
let me = "";
let everOpen = false;

function status(text, state) {
  const el = $("connection");
  el.textContent = shown(text);
  el.dataset.state = state;
}

function panel(key, lines) {
  let box = PANELS.includes(key) ? $(key) : document.querySelector(`[data-panel="${CSS.escape(key)}"] .lines`);
  if (!box) {
    // A panel this page has no place for yet: shown under its own name, as text.
    const section = document.createElement("section");
    section.className = "panel";
    section.dataset.panel = key;
    const head = document.createElement("h2");
    head.textContent = shown(key).replace(/[_-]+/g, " ");
    box = document.createElement("div");
    box.className = "lines";
    section.append(head, box);
    $("more-panels").append(section);
  }
  const count = key === "toolbar" ? showRows(box, lines) : showLines(box, lines, true);
  box.closest("section, details").hidden = count === 0;
  // On a phone the panels are below the story: whose move it is shows by the command line too.
  if (key === "turn") $("turn-inline").textContent = box.firstElementChild ? box.firstElementChild.textContent : "";
}

let hostMoves = [];

/** The moves bar: the host's own list, if it sends one, then the commands its panels suggest now
 * (whose move it is, the odds and what is due: "`scene` begins the next"). */
function showMoves(panels) {
  const said = [];
  for (const key of ["turn", "hints"]) {
    for (const line of Array.isArray(panels[key]) ? panels[key] : []) {
      said.push(...commandsIn(typeof line === "string" ? line : (line && line.text) || ""));
    }
  }
  const moves = [...hostMoves];
  const seen = new Set(moves.map((m) => m.line));
  for (const text of said) {
    const line = fillFor(text);
    if (!seen.has(line)) {
      seen.add(line);
      moves.push({ label: text, line });
    }
  }
  command.setMoves(moves.slice(0, 8));
}

const command = new CommandLine({
  form: $("command-form"),
  input: $("command"),
  list: $("completions"),
  moves: $("moves"),
  send: $("send"),
  note: $("note"),
  onSend: (text) => {
    connection.line(text);
    if (!connection.welcomed) command.note.textContent = "Not connected: the line goes when the host is back.";
  },
  onComplete: (text, cursor) => connection.complete(text, cursor),
});

function showTitle(title) {
  if (!title) return;
  $("title").textContent = shown(title);
  document.title = `${shown(title)}: Wyrd`;
}

/** Who sits at the table: each seat's name, what it holds, whether it is here now. */
function showSeats(seats) {
  const list = Array.isArray(seats) ? seats.filter((s) => s && typeof s === "object") : [];
  $("seats").replaceChildren(...list.map((seat) => {
    const held = Array.isArray(seat.characters) && seat.characters.length ? seat.characters.join(", ") : "no one yet";
    const text = `${seat.name || "A seat"}${seat.host ? " (host)" : ""}: ${held}${seat.online ? "" : " · away"}`;
    const item = lineElement({ text, style: seat.online ? "plain" : "hint" }, "li");
    if (seat.name === me) item.classList.add("me");
    return item;
  }));
  $("seats-panel").hidden = list.length === 0;
}

function handle(msg) {
  switch (msg.type) {
    case "welcome": {
      me = typeof msg.name === "string" ? shown(msg.name) : "";
      $("who").textContent = me ? `(${me})` : "";
      const table = msg.table && typeof msg.table === "object" ? msg.table : {};
      showTitle(table.title || table.story_title || "");
      if (Array.isArray(msg.moves)) hostMoves = msg.moves;
      log.wholeUpTo = Number(msg.last) || 0;
      $("join").hidden = true;
      $("log").setAttribute("aria-busy", "true"); // what was missed arrives all at once: read it as one
      if (location.hash) history.replaceState(null, "", location.pathname + location.search);
      command.enable(true);
      break;
    }
    case "log":
      if (log.addEntry(msg)) {
        // The story's title for people, as the story told it when it was chosen.
        for (const event of Array.isArray(msg.events) ? msg.events : []) {
          if (event && event.kind === "story_chosen" && event.title) showTitle(event.title);
        }
      }
      break;
    case "prose":
      log.prose(msg.n, msg.chunk);
      break;
    case "prose_done":
    case "prose_withdrawn":
      log.proseEnd(msg.n, msg.lines, msg.type === "prose_withdrawn");
      break;
    case "view": {
      const panels = msg.panels && typeof msg.panels === "object" ? msg.panels : {};
      for (const [key, lines] of Object.entries(panels)) {
        if (key === "prompt") $("prompt").textContent = typeof lines === "string" ? shown(lines).trim() : "";
        else panel(key, lines);
      }
      if (Array.isArray(msg.moves)) hostMoves = msg.moves;
      showMoves(panels);
      $("log").setAttribute("aria-busy", "false");
      break;
    }
    case "refused":
      log.addLocal([{ text: `Refused: ${msg.reason || "the host refused that line"}`, style: "refused" }],
        "refused", msg.line || "");
      break;
    case "digest":
      log.addLocal(Array.isArray(msg.lines) ? msg.lines : [], "digest", "");
      break;
    case "seats":
      showSeats(msg.seats);
      break;
    case "notice":
      log.addLocal([{ text: String(msg.text || ""), style: "info" }], "notice", "");
      break;
    case "reply":
      log.addLocal(Array.isArray(msg.lines) ? msg.lines : [], "reply", msg.line || "");
      break;
    case "completions":
      command.completions(msg.items, msg.id);
      break;
    default:
      break; // a newer host's message this page does not know: nothing to show
  }
}

const connection = new Connection(socketUrl.href, {
  message: handle,
  state(name, detail) {
    $("retry").hidden = name !== "refused";
    if (name === "connecting") status(everOpen ? "Reconnecting…" : "Connecting…", name);
    else if (name === "open") {
      everOpen = true;
      status(me ? `At the table as ${me}` : "At the table", name);
    } else if (name === "lost") status("Connection lost: reconnecting…", name);
    else if (name === "waiting") status(`${shown(detail)}: trying again soon…`, "lost");
    else if (connection.invite && !everOpen) {
      // Not seated yet (a name taken, say): the invitation still holds; say why and ask again.
      $("retry").hidden = true;
      status(`The host refused: ${detail}`, name);
      $("join-text").textContent = `The host said: ${shown(detail)}.`;
      $("join").hidden = false;
      $("join-name").focus();
      $("join-name").select();
    } else status(`The host refused: ${detail}`, name);
  },
});

$("retry").addEventListener("click", () => connection.retry());
// A command a panel names, clicked, goes on the command line (the player finishes it and sends it).
for (const where of [$("frame-panel"), document.querySelector(".side")]) {
  where.addEventListener("click", (e) => {
    const chip = e.target.closest("button.chip");
    if (chip) command.move(chip.dataset.line || "", false);
  });
}
// The skip link moves the focus without putting "#command" in the address (a reload reads the fragment).
document.querySelector(".skip").addEventListener("click", (e) => {
  e.preventDefault();
  $("command").focus();
});

// "/" brings the keyboard back to the command line, unless the player is typing somewhere.
document.addEventListener("keydown", (e) => {
  if (e.key !== "/" || e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
  const target = e.target;
  if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  e.preventDefault();
  $("command").focus();
});

function start() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const invite = fragment.get("invite") || "";
  if (fragment.get("seat")) connection.seat = fragment.get("seat"); // a seat's own link (wyrd join reads it too)
  if (!invite && (fragment.get("seat") || storedSeat())) {
    connection.start({ after: () => log.complete });
    return;
  }
  if (!invite) {
    status("Open the invitation link the host gave you to take a seat.", "refused");
    return;
  }
  const join = $("join");
  const name = $("join-name");
  try {
    name.value = localStorage.getItem(NAME_KEY) || "";
  } catch {
    // no storage: the player types the name
  }
  join.hidden = false;
  status("Invited: choose your name.", "connecting");
  name.focus();
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const chosen = name.value.trim();
    if (!chosen) return;
    try {
      localStorage.setItem(NAME_KEY, chosen);
    } catch {
      // the name is only a convenience for next time
    }
    connection.start({ invite, name: chosen, after: () => log.complete });
  });
}

start();
