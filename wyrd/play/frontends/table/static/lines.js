// Lines as the host sends them ({text, style}), turned into elements with textContent only:
// nothing a story, a player or a model wrote is ever parsed as HTML.

const STYLE_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** The CSS class for a line's style name; anything unexpected reads as plain. */
export function styleClass(style) {
  const name = typeof style === "string" ? style : "plain";
  return "s-" + (STYLE_NAME.test(name) ? name : "plain");
}

/** One line ({text, style}, or a bare string) as an element. */
export function lineElement(line, tag = "p") {
  const el = document.createElement(tag);
  const text = typeof line === "string" ? line : line && line.text;
  const style = typeof line === "string" ? "plain" : line && line.style;
  el.className = "line " + styleClass(style);
  el.textContent = text == null ? "" : String(text);
  return el;
}

/** Every line of a list, replacing what the container held. */
export function showLines(container, lines) {
  const list = Array.isArray(lines) ? lines : [];
  container.replaceChildren(...list.map((line) => lineElement(line)));
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
      span.textContent = text == null ? "" : String(text);
      line.append(span);
    }
    return line;
  }));
  return container.childElementCount;
}
