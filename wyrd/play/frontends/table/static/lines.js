// Lines as the host sends them ({text, style}), turned into elements with textContent only:
// nothing a story, a player or a model wrote is ever parsed as HTML.

const STYLE_NAME = /^[a-z][a-z0-9-]{0,31}$/;
// Terminal escape sequences, control characters and bidi overrides (as wyrd.play.frontends.view.clean
// removes them): the host cleans the lines it sends, and the page cleans again whatever it shows,
// event fields included, so none reaches the screen.
const CONTROL = new RegExp(
  "\\x1b\\[[0-?]*[ -/]*[@-~]|\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)?|\\x1b.?|[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]" +
  "|[\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]", "g");

/** Any value as text to show: no escape sequence, no control character but line breaks and tabs. */
export function shown(value) {
  return (value == null ? "" : String(value)).replace(CONTROL, "");
}

/** The CSS class for a line's style name; anything unexpected reads as plain. */
export function styleClass(style) {
  const name = typeof style === "string" ? style : "plain";
  return "s-" + (STYLE_NAME.test(name) ? name : "plain");
}

/** The commands a text names between backticks (the host's way of saying "type `scene`"). */
export function commandsIn(text) {
  const parts = String(text).split("`");
  const found = [];
  for (let i = 1; i < parts.length - 1; i += 2) if (parts[i].trim()) found.push(parts[i].trim());
  return found;
}

/** What a command named in a text puts on the command line: up to its first placeholder (NAME, [A, B], a|b). */
export function fillFor(command) {
  const words = String(command).trim().split(/\s+/);
  const kept = [];
  for (const word of words) {
    if (/^[A-Z][A-Z0-9_]+\b/.test(word) || /[[|]/.test(word) || word === "...") return kept.join(" ") + " ";
    kept.push(word);
  }
  return kept.join(" ");
}

/** A command named in a text, as a button that puts it on the command line (or as code in the log). */
function commandElement(command, asButton) {
  if (!asButton) {
    const code = document.createElement("code");
    code.textContent = shown(command);
    return code;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = "chip";
  button.dataset.line = fillFor(shown(command));
  button.textContent = shown(command);
  button.title = `Type ${shown(command)}`;
  return button;
}

/** One line ({text, style}, or a bare string) as an element; `commands` named in it become code,
 * or buttons with ``buttons`` (text nodes and elements only: never parsed as HTML). */
export function lineElement(line, tag = "p", buttons = false) {
  const el = document.createElement(tag);
  const text = typeof line === "string" ? line : line && line.text;
  const style = typeof line === "string" ? "plain" : line && line.style;
  el.className = "line " + styleClass(style);
  const parts = shown(text).split("`");
  if (parts.length % 2 === 0) {
    // A backtick without its pair stays as it was written.
    const tail = parts.pop();
    parts[parts.length - 1] += "`" + tail;
  }
  parts.forEach((part, i) => {
    if (i % 2 === 0) el.append(part);
    else if (part.trim()) el.append(commandElement(part.trim(), buttons));
    else el.append("`" + part + "`");
  });
  return el;
}

/** Every line of a list, replacing what the container held. */
export function showLines(container, lines, buttons = false) {
  const list = Array.isArray(lines) ? lines : [];
  container.replaceChildren(...list.map((line) => lineElement(line, "p", buttons)));
  return list.length;
}

/** The toolbar's rows, each a list of [style, text] pieces (the REPL's bottom bar), as lines of spans. */
export function showRows(container, rows) {
  const list = Array.isArray(rows) ? rows : [];
  container.replaceChildren(...list.filter(Array.isArray).map((row) => {
    const line = document.createElement("p");
    line.className = "line pieces";
    for (const piece of row) {
      const [style, text] = Array.isArray(piece) ? piece : [piece && piece.style, piece && piece.text];
      const span = document.createElement("span");
      // "class:toolbar.pool" (a prompt-toolkit class) and "pool" name the same look
      const name = String(style || "plain").replace(/^class:/, "").replace(/^toolbar\.?/, "") || "plain";
      span.className = "t-" + styleClass(name).slice(2);
      span.textContent = shown(text);
      line.append(span);
    }
    return line;
  }));
  return container.childElementCount;
}
