// The confirmation dialog (#confirm): a plain "are you sure", and the undo or correction dialog
// pinned to the preview it shows. Also what a verdict or a preview says, in words.
import {$, el, ruleLink} from "./dom.js";
import {api} from "./api.js";
import {gameOf} from "./state.js";

// A <dialog> shown modal (an old browser without showModal: shown in place).
function openDialog(dialog) {
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

/** Ask `title` with `lines` (text or nodes); resolves to true (yes) or false. */
export function confirmDialog(title, lines, yesLabel, canConfirm = true) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-note").hidden = true;
  $("confirm-text").replaceChildren(...lines.map((l) => (l instanceof Node ? l : el("p", {}, l))));
  $("confirm-yes").textContent = yesLabel || "Yes";
  $("confirm-yes").hidden = !canConfirm;
  $("confirm-yes").disabled = false;
  $("confirm-no").textContent = canConfirm ? "Cancel" : "Close";
  return new Promise((resolve) => {
    const done = (answer) => {
      $("confirm-yes").onclick = null; $("confirm-no").onclick = null; dialog.oncancel = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.oncancel = (ev) => { ev.preventDefault(); done(false); };
    openDialog(dialog);
  });
}

// An undo or a correction, pinned to what its preview showed. The dialog shows the preview and
// keeps its input_seq; while it is open it follows the table, and when the table moves on it shows
// the new preview and says so, before anyone confirms. Confirming sends the seq it showed: a 409
// (the table moved on in the last instant) changes nothing, and the dialog shows the fresh preview.
// `kind`: {title, yes, what} ("what": what the action takes, in the moved-on note).
// Resolves to the server's verdict, or null when cancelled.
export function pinnedDialog(tableId, kind, getPreview, send, first) {
  const dialog = $("confirm");
  let preview = first;
  let busy = false;  // a confirm is on its way
  let look = null;   // the look at the table in flight (a promise), or null
  let timer = null;
  let seen = null;  // the table's accepted and inputs counts the preview was made at
  const note = (text) => {
    $("confirm-note").textContent = text || "";
    $("confirm-note").hidden = !text;
  };
  const show = () => {
    $("confirm-text").replaceChildren(...previewLines(preview));
    $("confirm-text").dataset.seq = preview.input_seq ?? "";
    $("confirm-yes").hidden = !preview.accepted;
    $("confirm-yes").disabled = false;
    $("confirm-no").textContent = preview.accepted ? "Cancel" : "Close";
  };
  const counts = async () => {
    const list = await api("GET", "/api/tables?archived=1");
    const t = list.find((x) => x.id === tableId);
    return t ? `${t.status}/${t.accepted}/${t.inputs}` : "gone";
  };
  const refresh = async (movedText) => {
    const fresh = await getPreview();
    const moved = fresh.input_seq !== preview.input_seq || fresh.accepted !== preview.accepted;
    preview = fresh;
    show();
    if (moved) note(movedText);
    return moved;
  };
  $("confirm-title").textContent = kind.title;
  $("confirm-yes").textContent = kind.yes;
  note("");
  show();
  return new Promise((resolve) => {
    const done = (answer) => {
      clearInterval(timer);
      $("confirm-yes").onclick = null; $("confirm-no").onclick = null; dialog.oncancel = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    // Follow the table: a cheap look at its counts every second, a new preview when they change.
    timer = setInterval(() => {
      if (busy || look) return;
      look = (async () => {
        try {
          const now = await counts();
          if (seen === null) seen = now;
          else if (now !== seen) {
            seen = now;
            await refresh(`The table moved on: this is now what ${kind.what}.`);
          }
        } catch (e) { /* the next tick tries again */ } finally { look = null; }
      })();
    }, 1000);
    $("confirm-yes").onclick = async () => {
      if (busy) return;
      busy = true;
      $("confirm-yes").disabled = true;
      try {
        // A look at the table in flight is waited for, never a reason to drop the click (the
        // organiser's click did nothing while one was under way). If it found the table moved
        // on, the dialog now shows the new preview and says so: nothing is sent, since that is
        // not what was confirmed.
        const shown = preview.input_seq;
        if (look) await look;
        if (preview.input_seq !== shown) {
          $("confirm-yes").disabled = !preview.accepted;
          return;
        }
        done(await send(preview.input_seq));
      } catch (e) {
        if (e.status === 409) {
          try {
            await refresh("");
            note(`Nothing was changed: the table moved on before you confirmed. This is now ` +
                 `what ${kind.what}; confirm again or cancel.`);
          } catch (e2) { note(e2.message); }
          counts().then((c) => { seen = c; }).catch(() => {});
        } else {
          note(e.message);
          $("confirm-yes").disabled = false;
        }
      } finally { busy = false; }
    };
    $("confirm-no").onclick = () => done(null);
    dialog.oncancel = (ev) => { ev.preventDefault(); done(null); };
    counts().then((c) => { if (seen === null) seen = c; }).catch(() => {});
    openDialog(dialog);
  });
}

// What an undo or a correction changes, in words (from /undo-preview, /correct-preview).
function previewLines(p) {
  const lines = [];
  if (!p.accepted) {
    const r = p.rejection || {};
    lines.push(el("p", {class: "error-text"}, "The table would refuse it: ",
                  ruleLink(gameOf(p.table), r.rule),
                  r.reason || "refused", r.hint ? ` (${r.hint})` : ""));
    return lines;
  }
  if (p.input_seq !== null && p.input_seq !== undefined) {
    lines.push(el("p", {class: "taken"},
                  el("strong", {}, p.action === "undo" ? "Takes back " : "Replaces "),
                  `play #${p.input_seq}: `, p.words || "the last accepted play"));
  }
  if (p.action === "correct") {
    lines.push(el("p", {}, el("strong", {}, "With: "),
                  p.replacement_words || "the input you typed"));
  }
  // null: the game keeps its scores to the end (before or after), so none are compared.
  const hidden = !p.scores_before || !p.scores_after;
  const changes = hidden ? []
    : p.seats.map((name, i) => [name, p.scores_before[i], p.scores_after[i]])
      .filter(([, a, b]) => a !== b);
  lines.push(hidden ? el("p", {}, el("strong", {}, "Scores: "), "at the end")
    : changes.length
    ? el("div", {}, el("strong", {}, "Scores: "),
         el("ul", {}, changes.map(([name, a, b]) => el("li", {}, `${name}: ${a} → ${b}`))))
    : el("p", {}, el("strong", {}, "Scores: "), "no change"));
  if (p.waiting_for_after !== p.waiting_for_before) {
    lines.push(el("p", {}, el("strong", {}, "Then waiting for: "), p.waiting_for_after));
  } else {
    lines.push(el("p", {}, el("strong", {}, "Still waiting for: "), p.waiting_for_after));
  }
  const pieces = p.put_back || p.pieces || p.physical;
  if (pieces) {
    lines.push(el("p", {}, el("strong", {}, "At the table: "), [].concat(pieces).join(" · ")));
  }
  if ((p.events || []).length) {
    lines.push(el("p", {class: "muted"}, "The table will say: " + p.events.join(" · ")));
  }
  return lines;
}

/** A verdict from the server as nodes for say(): what happened, and for a refusal its rule
 * (linked), reason and what to do. */
export function verdictText(v, tableId) {
  if (v.accepted) {
    const events = v.events || [];
    return [`accepted (play #${v.seq})`, events.length ? ": " + events.join(" · ") : ""];
  }
  return [`refused (play #${v.seq}): `, ruleLink(gameOf(tableId), v.rule), " ", v.reason || "",
          v.hint ? ` → ${v.hint}` : ""];
}

/** What to do with the physical pieces after an undo or a correction, when the server says. */
export function afterUndo(done) {
  const pieces = done.put_back || done.pieces || done.physical;
  return pieces ? [" — at the table: ", [].concat(pieces).join(" · ")] : null;
}
