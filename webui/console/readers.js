// Reader health (#readers) for the chosen table, and the server's periodic backup (#backup-line).
import {$, el, badge, ago} from "./dom.js";
import {update} from "./morph.js";
import {api} from "./api.js";
import {state} from "./state.js";

/** Load and show the chosen table's readers (or say to choose a table). */
export async function loadReaders() {
  const body = $("readers");
  const selected = state.selected;
  if (!selected) {
    update(body);
    $("readers-note").textContent = "Choose a table to see its readers.";
    return;
  }
  const got = await api("GET", `/api/tables/${encodeURIComponent(selected)}/readers`);
  $("readers-note").textContent = got.error ? `The readers cannot be asked: ${got.error}`
    : got.backend ? `Table ${got.table} (${got.backend} readers) · refreshed every 2 s`
    : `Table ${got.table} has no readers attached` +
      (got.status === "ended" ? " (it has ended)" : "");
  update(body, got.readers.map((r) => el("tr", {"data-reader": r.reader, "data-key": r.reader,
                                               class: r.online ? "" : "offline"},
    el("td", {}, el("code", {}, r.reader)),
    el("td", {}, r.online ? badge("online") : badge("offline")),
    el("td", {}, ago(r.age_s)),
    el("td", {}, `${r.read_rate}/s`),
    el("td", {}, String(r.reads)),
    el("td", {class: r.errors ? "error-text" : ""}, String(r.errors)),
    el("td", {class: "muted small"}, r.detail || ""))));
}

/** The server's periodic backup (serve --backup-to): its last round, or its failure in words. */
export async function loadBackup() {
  const b = await api("GET", "/api/backup");
  const line = $("backup-line");
  line.hidden = !b.configured;
  line.textContent = b.words;
  line.classList.toggle("error-text", !b.ok);
  line.classList.toggle("muted", b.ok);
}
