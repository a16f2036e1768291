// scorekeeper dashboard: pairing a phone from the table view, for the organiser (a page holding
// the organiser token): the dialog with a fresh code, the server's QR code of our own address
// when phones can open it, and the time the code has left.

import {el, SVG_NS} from "../kit.js";
import {$, page, organiserToken} from "./state.js";

/** Ask the server for a code for `seat` of `tableId` and show it in #pair-dialog. */
export async function showPairing(tableId, seat, name) {
  const dialog = $("pair-dialog");
  const qr = $("pair-qr");
  const code = $("pair-shown-code");
  const info = $("pair-info");
  clearInterval(page.pairTimer);
  qr.replaceChildren();
  code.textContent = "…";
  $("pair-title").textContent = `Pair a phone with ${name}`;
  info.textContent = "Asking the server for a code…";
  dialog.hidden = false;
  $("pair-close").focus();
  $("pair-again").onclick = () => showPairing(tableId, seat, name);
  let res, body;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/pair`, {
      method: "POST", headers: {"Authorization": "Bearer " + organiserToken()}});
    body = await res.json();
  } catch (e) {
    info.textContent = "The server cannot be reached.";
    code.textContent = "";
    return;
  }
  if (!res.ok) {
    code.textContent = "";
    info.textContent = (body && body.error) || "No code: the organiser token was refused.";
    if (res.status === 401) {
      info.textContent += " This page's organiser token is not valid; open the console again.";
    }
    return;
  }
  code.textContent = body.code;
  // No QR code for an address no phone can open (a server on loopback only): the server says
  // instead how to serve on the network, and the code still pairs a phone on this machine.
  const picture = body.url ? qrPicture(body.qr_svg) : null;
  if (picture) qr.append(picture);
  qr.hidden = !picture;
  $("pair-code-label").textContent = picture ? "or type the code" : "the pairing code";
  const ends = Date.now() + (body.expires_in || 600) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
    info.replaceChildren(
      picture ? el("div", {}, `Scan the code with ${body.seat_name || name}'s phone, or open ` +
                              "this page on the phone and type the code in “Pair this phone”.")
              : el("div", {}, `Type this code in “Pair this phone” on ${body.seat_name || name}'s ` +
                              "phone, once the phone can open this page."),
      !picture && body.hint ? el("div", {class: "pair-hint", "data-pair-hint": ""}, body.hint)
                            : null,
      el("div", {class: "muted"}, [
        picture ? body.url : "",
        left ? `expires in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`
             : "expired: ask for a new code"].filter(Boolean).join(" · ")));
    if (!left) clearInterval(page.pairTimer);
  };
  tick();
  page.pairTimer = setInterval(tick, 1000);
}

/** The server's QR code (an SVG it drew from our own URL), parsed, cleaned and imported.
 * Hazard: it is markup from the network; only the drawing is kept (no script, link or event). */
function qrPicture(source) {
  if (typeof source !== "string" || !source) return null;
  // Parsed as HTML (inert: nothing in a parsed document runs), which puts an <svg> without an
  // xmlns in the SVG namespace, as in a page; only the drawing itself is kept.
  const doc = new DOMParser().parseFromString(source, "text/html");
  const root = doc.body && doc.body.querySelector("svg");
  if (!root || root.namespaceURI !== SVG_NS) return null;
  for (const bad of root.querySelectorAll("script, foreignObject, iframe, a, image, use")) bad.remove();
  for (const node of [root, ...root.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      if (/^on/i.test(attr.name) || /href$/i.test(attr.name)) node.removeAttribute(attr.name);
    }
  }
  if (!root.getAttribute("viewBox")) {
    const w = parseFloat(root.getAttribute("width")), h = parseFloat(root.getAttribute("height"));
    if (w && h) root.setAttribute("viewBox", `0 0 ${w} ${h}`);
  }
  root.removeAttribute("width");
  root.removeAttribute("height");
  root.setAttribute("role", "img");
  root.setAttribute("aria-label", "QR code to pair a phone");
  return document.importNode(root, true);
}

/** Close the dialog and stop its countdown. */
export function closePairing() {
  clearInterval(page.pairTimer);
  $("pair-dialog").hidden = true;
  $("pair-qr").replaceChildren();
  $("pair-shown-code").textContent = "";
}
