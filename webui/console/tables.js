// The table list (#tables): one row per table with its seats, scores and phones, and the
// actions on a table (start, pause, end, undo, exports, archive, delete).
import {$, el, badge, say} from "./dom.js";
import {update} from "./morph.js";
import {api, download} from "./api.js";
import {confirmDialog, pinnedDialog, verdictText, afterUndo} from "./dialogs.js";
import {state, tableLabel} from "./state.js";
import {pair, unpair} from "./detail.js";
import {refreshAll} from "./refresh.js";

/** Load the list (archived tables only when asked for) and show it; keep a table chosen. */
export async function loadTables() {
  const showArchived = $("show-archived").checked;
  const tables = await api("GET", showArchived ? "/api/tables?archived=1" : "/api/tables");
  state.tables = tables;
  if (!state.selected || !tables.some((t) => t.id === state.selected)) {
    const pick = tables.find((t) => t.status === "running") || tables[tables.length - 1];
    state.selected = pick ? pick.id : null;
  }
  const body = $("tables");
  if (!tables.length) {
    update(body, el("tr", {}, el("td", {colspan: 4, class: "muted"},
      showArchived ? "No tables yet: create one below." : "No tables to show: create one below" +
      " (archived tables show with “show archived”).")));
    return;
  }
  update(body, tables.map(tableRow));
}

export function initTables() {
  $("show-archived").onchange = () => refreshAll();
}

function choose(id) {
  state.selected = id;
  refreshAll();
}

// Each seat with its score and its phone: pair one (code and QR on the right), or withdraw
// every phone paired with it (a lost or swapped phone). An ended table pairs no more phones.
function seatLines(t, key, label) {
  const ended = t.status === "ended";
  return (t.seats || []).map((name, i) => el("div", {class: "seat-line", "data-row-seat": i,
                                                    "data-key": key(`seat${i}`)},
    el("span", {class: "seat-name"}, name), " ",
    t.scores_private ? el("small", {class: "muted"}, "score at the end")
                     : el("strong", {}, (t.scores || [])[i] ?? ""),
    el("span", {class: "phone"},
      el("button", {type: "button", class: "tiny", "data-pair-seat": i, "data-key": key(`pair${i}`),
                    disabled: !!t.error || ended,
                    "aria-label": `pair a phone with ${name}'s seat at ${label}`,
                    onclick: (ev) => { ev.stopPropagation(); pair(t.id, i); }}, "pair"),
      el("button", {type: "button", class: "tiny danger", "data-unpair-seat": i,
                    "data-key": key(`unpair${i}`),
                    "aria-label": `unpair ${name}'s phone at ${label}`,
                    title: `withdraw every phone paired with ${name}'s seat`,
                    onclick: (ev) => {
                      ev.stopPropagation();
                      unpair(t.id, i, name, ev.currentTarget);
                    }}, "unpair"))));
}

function tableRow(t) {
  const st = t.status;
  const ended = st === "ended";
  const label = t.name || t.id;
  const current = t.id === state.selected;
  // Every control carries a data-key unique on the page, so that a live update keeps it (and
  // the keyboard focus on it) or, if it had to be rebuilt, focuses its successor.
  const key = (what) => `${t.id}:${what}`;
  const action = (name, text, enabled, title) => el("button", {type: "button",
    "data-action": name, "data-key": key(name), disabled: !enabled, title,
    "aria-label": `${text.replace("…", "")} ${label}`,
    onclick: (ev) => { ev.stopPropagation(); act(t, name, ev.currentTarget); }}, text);
  const running = st === "running";
  return el("tr", {"data-table": t.id, "data-key": t.id,
                   class: (current ? "current" : "") + (t.archived ? " archived" : ""),
                   "aria-current": current ? "true" : null, onclick: () => choose(t.id)},
    el("td", {},
      // The row is chosen with this button too: keyboard and screen readers reach it.
      el("button", {type: "button", class: "link choose", "data-key": key("choose"),
                    "data-choose": t.id, "aria-pressed": current ? "true" : "false",
                    onclick: (ev) => { ev.stopPropagation(); choose(t.id); }},
         el("strong", {}, label)),
      el("div", {class: "muted small"}, `${t.id} · ${t.game_name || t.game}`)),
    el("td", {}, badge(st), t.archived ? [" ", badge("archived")] : null,
       t.over ? el("div", {class: "small"}, "game over") : null,
       t.error ? el("div", {class: "error-text small"}, t.error) : null),
    el("td", {}, seatLines(t, key, label),
       ended ? null : el("div", {class: "muted small"}, t.waiting_for || "")),
    el("td", {}, el("div", {class: "actions"},
      action("start", st === "paused" ? "Resume" : "Start", st === "created" || st === "paused"),
      action("pause", "Pause", running),
      action("end", "End", !ended),
      action("undo", "Undo…", !t.error && (t.accepted || 0) > 0,
             "take back the last accepted play"),
      action("export-json", "JSON", true, "the whole game as JSON"),
      action("export-csv", "CSV", true, "the scores as CSV"),
      t.archived ? action("unarchive", "Unarchive", true, "list the table again")
        : action("archive", "Archive", !running, running
          ? "pause or end the table first" : "hide the table from the lists (its log stays)"),
      action("delete", "Delete…", ended || !!t.archived, ended || t.archived
        ? "delete the table and its log for good" : "end or archive the table first"))));
}

async function act(t, name, button) {
  const id = t.id;
  const label = t.name || id;
  const path = `/api/tables/${encodeURIComponent(id)}`;
  if (button) button.disabled = true;
  try {
    if (name === "start" || name === "pause") {
      const done = await api("POST", `${path}/${name}`);
      say(`${label}: ${done.status}`);
    } else if (name === "end") {
      const ok = await confirmDialog(`End ${label}?`, [
        "The game ends for good: the readers stop and no more plays are taken.",
        "Undo and corrections still work; to play again, create a new table."], "End the table");
      if (!ok) return;
      const done = await api("POST", `${path}/end`);
      say(`${label}: ${done.status}`);
    } else if (name === "undo") {
      await undo(id);
    } else if (name === "archive" || name === "unarchive") {
      await api("POST", `${path}/archive`, {archived: name === "archive"});
      say(name === "archive"
        ? `${label} is archived: hidden from the lists (tick “show archived” to see it); ` +
          "its log stays and can be exported."
        : `${label} is listed again.`);
    } else if (name === "delete") {
      const ok = await confirmDialog(`Delete ${label} (${id})?`, [
        `The table ${label} and its whole log are deleted for good: it cannot be exported or ` +
        "replayed afterwards, and this cannot be undone.",
        "To keep the log but hide the table, archive it instead."], `Delete ${label}`);
      if (!ok) return;
      await api("DELETE", path);
      if (state.selected === id) state.selected = null;
      say(`${label} is deleted.`);
    } else if (name === "export-json") {
      await download(`${path}/export`, `${id}.json`);
      say(`${label}: exported as ${id}.json`);
    } else if (name === "export-csv") {
      await download(`${path}/scores.csv`, `${id}-scores.csv`);
      say(`${label}: scores exported as ${id}-scores.csv`);
    }
  } catch (e) {
    say(`${label}: ${e.message}`, true);
  } finally {
    if (button) button.disabled = false;
    await refreshAll();
    // Pause and Resume take turns: a keyboard user lands on the one that can be pressed now
    // rather than on the page (a disabled button cannot keep the focus).
    const other = {pause: "start", start: "pause"}[name];
    if (other && (document.activeElement === document.body || document.activeElement === null)) {
      const next = document.querySelector(`[data-key="${CSS.escape(`${id}:${other}`)}"]`);
      if (next && !next.disabled) next.focus();
    }
  }
}

async function undo(id) {
  const path = `/api/tables/${encodeURIComponent(id)}`;
  const getPreview = () => api("GET", `${path}/undo-preview`);
  const done = await pinnedDialog(id, {title: `Undo at ${tableLabel(id)}?`, yes: "Undo",
                                       what: "the undo would take back"},
    getPreview, (seq) => api("POST", `${path}/undo`, {seq}), await getPreview());
  if (done) {
    say([`${tableLabel(id)}: undo `, verdictText(done, id), afterUndo(done)], !done.accepted);
  }
}

export async function correct(id, text) {
  const path = `/api/tables/${encodeURIComponent(id)}`;
  const getPreview = () => api("POST", `${path}/correct-preview`, {input: text});
  const done = await pinnedDialog(id, {title: `Correct the last play at ${tableLabel(id)}?`,
                                       yes: "Correct", what: "the correction would replace"},
    getPreview, (seq) => api("POST", `${path}/correct`, {input: text, seq}), await getPreview());
  if (!done) return false;
  say([`${tableLabel(id)}: correction `, verdictText(done, id), afterUndo(done)], !done.accepted);
  return done.accepted;
}

