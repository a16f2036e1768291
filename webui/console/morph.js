// Updating in place. The console follows the tables live (every 2 s). Rebuilding the DOM on each
// update would take the keyboard focus away from a Pause or pair button within seconds, so a new
// rendering is merged into the page instead: nodes that match (same tag, same data-key) are kept
// and only their text, attributes and handlers change. A focused button stays the same element.
import {HANDLERS, nodes} from "./dom.js";

const keyOf = (node) =>
  (node.nodeType === Node.ELEMENT_NODE ? node.getAttribute("data-key") : null);

function morph(from, to) {
  if (from.nodeType !== to.nodeType || from.nodeName !== to.nodeName || keyOf(from) !== keyOf(to)) {
    from.replaceWith(to);
    return to;
  }
  if (from.nodeType !== Node.ELEMENT_NODE) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return from;
  }
  for (const a of [...from.attributes]) if (!to.hasAttribute(a.name)) from.removeAttribute(a.name);
  for (const a of to.attributes) {
    if (from.getAttribute(a.name) !== a.value) from.setAttribute(a.name, a.value);
  }
  for (const h of HANDLERS) if (from[h] !== to[h]) from[h] = to[h];
  // What someone is typing stays; a box nobody is in follows the server.
  // (data-keep: a box whose text is the organiser's own, e.g. the input to feed, always stays.)
  const box = from.tagName === "INPUT" || from.tagName === "TEXTAREA";
  if (box && from !== document.activeElement && !from.hasAttribute("data-keep") &&
      from.type !== "checkbox" && from.type !== "radio" && from.value !== to.value) {
    from.value = to.value;
  }
  morphChildren(from, [...to.childNodes]);
  return from;
}

function morphChildren(parent, wanted) {
  const keyed = new Map();
  for (const c of parent.childNodes) if (keyOf(c)) keyed.set(keyOf(c), c);
  wanted.forEach((node, i) => {
    const here = parent.childNodes[i] || null;
    const key = keyOf(node);
    const match = key ? keyed.get(key) : here && !keyOf(here) ? here : null;
    if (match && key) keyed.delete(key);
    if (!match) { parent.insertBefore(node, here); return; }
    if (match !== here) parent.insertBefore(match, here);
    morph(match, node);
  });
  while (parent.childNodes.length > wanted.length) parent.lastChild.remove();
}

/** Put `children` into `node` in place (see above). Give every control a data-key unique on the
 * page: a kept control keeps the focus; a rebuilt one hands it to its successor by that key. */
export function update(node, ...children) {
  const active = document.activeElement;
  const key = active && node.contains(active) ? keyOf(active) : null;
  morphChildren(node, nodes(children));
  // The focused element went (its row was rebuilt) or was moved (a node moved in the DOM loses
  // the focus): focus it, or its successor by the same data-key, again.
  if (key && document.activeElement !== active) {
    const again = node.contains(active) ? active
      : node.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({preventScroll: true});
  }
  return node;
}
