// scorekeeper dashboard: the live connection to the table shown (/ws/tables/{id}).
//
// Each message is the whole view for this page's audience: the public view, or the paired
// seat's own (?token=). A closed socket is opened again with a growing wait (0.5 s to 8 s); a
// withdrawn pairing (4401/4403) makes the page forget its seat and follow the public view.

import {$, page, tokens, saveTokens, mine} from "./state.js";
import {schedule, clearTable} from "./render.js";
import {drawTables} from "./tables.js";

/** Show table `id` (from the list, the URL's #id or a pairing) and follow it. */
export function choose(id) {
  if (id === page.current && page.socket) return;
  if (id !== page.current) clearTable(id);
  page.current = id;
  page.view = null;
  page.answers.clear();
  if (location.hash.slice(1) !== id) history.replaceState(null, "", "#" + id);
  document.body.classList.remove("no-table");
  drawTables();
  reconnect();
}

/** Drop the socket and connect again at once (a new seat token, another table). */
export function reconnect() {
  if (page.socket) { page.socket.onclose = null; page.socket.close(); page.socket = null; }
  page.retry = 500;
  connect();
}

function connect() {
  const id = page.current;
  if (!id) return;
  const seat = mine(id);
  const proto = location.protocol === "https:" ? "wss://" : "ws://";
  // The table view is always the public one, even on a page holding the organiser token (a TV
  // must never show hidden cards); a paired phone connects with its seat token.
  const query = seat ? "?token=" + encodeURIComponent(seat.token) : "";
  const socket = new WebSocket(proto + location.host + page.socketPath +
                               encodeURIComponent(id) + query);
  page.socket = socket;
  setLink("connecting…", "");
  socket.onopen = () => { page.retry = 500; setLink("live", "running"); };
  socket.onmessage = (msg) => {
    if (page.socket !== socket) return;  // a message from a table left meanwhile
    let view;
    try { view = JSON.parse(msg.data); } catch (e) { return; }
    if (view.error) { page.notice = view.error; schedule(); return; }
    page.view = view;
    schedule();
  };
  socket.onclose = (ev) => {
    if (page.socket !== socket) return;
    page.socket = null;
    if ((ev.code === 4401 || ev.code === 4403) && seat) {
      // The organiser withdrew this phone's pairing (the server closes the socket at once):
      // forget it, take the seat's own corner off the screen now, follow the public view.
      delete tokens[id];
      saveTokens();
      page.notice = "This phone's pairing has ended. Ask the organiser for a new pairing code.";
      page.view = null;
      $("mine").hidden = true;
      $("mine").replaceChildren();
      document.body.classList.remove("has-seat");
      schedule();
      connect();
      return;
    } else if (ev.code === 4404) {
      page.notice = `There is no table ${id}. Choose one from the list.`;
      setLink("no such table", "offline");
      schedule();
      return;
    }
    setLink("reconnecting…", "offline");
    setTimeout(() => { if (page.current === id && !page.socket) connect(); }, page.retry);
    page.retry = Math.min(page.retry * 2, 8000);
  };
}

function setLink(text, kind) {
  const link = $("link");
  link.textContent = text;
  link.className = "badge " + kind;
}
