// scorekeeper dashboard: keeping the keyboard's place across redraws.
//
// Every update redraws the parts it changes; a focused button or link would go with them and the
// keyboard's place fall back to the page. So the focused element is named by a stable key (its
// path of ids and data- attributes, and its words) before a redraw and focused again after.

/** The focused element's key, or null when nothing on the page has the focus. */
export function focusKey() {
  const a = document.activeElement;
  if (!a || a === document.body || a === document.documentElement) return null;
  const parts = [];
  for (let n = a; n && n !== document.body; n = n.parentElement) {
    if (n.id) { parts.unshift("#" + CSS.escape(n.id)); break; }
    const data = [...n.attributes].filter((at) => at.name.startsWith("data-"))
      .map((at) => `[${at.name}="${CSS.escape(at.value)}"]`).join("");
    parts.unshift(n.tagName.toLowerCase() + data);
  }
  return {node: a, selector: parts.join(" > "), words: a.textContent};
}

/** Focus again what `key` (from focusKey) named, or its redrawn twin. */
export function restoreFocus(key) {
  if (!key || document.activeElement === key.node) return;
  // Still on the page but moved (a node moved in the DOM loses the focus): focus it again.
  if (key.node.isConnected) { key.node.focus({preventScroll: true}); return; }
  let found = [];
  try { found = [...document.querySelectorAll(key.selector)]; } catch (e) { return; }
  const same = found.find((n) => n.textContent === key.words) || found[0];
  if (same && typeof same.focus === "function") same.focus({preventScroll: true});
}
