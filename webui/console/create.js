// The forms' lists (games, kits) and the New table form (#create-form): the game's options as
// choices with their defaults marked, and for each option that selects game data (a board
// profile, a card pack: GET /api/data names the option) a list of that data's complete entries.
import {$, el, humanize, message} from "./dom.js";
import {api} from "./api.js";
import {state} from "./state.js";
import {refreshAll} from "./refresh.js";

/** Load the games into the create and enroll forms' game lists. */
export async function loadGames() {
  state.games = await api("GET", "/api/games");
  for (const id of ["game", "enroll-game"]) {
    const select = $(id);
    const keep = select.value;
    select.replaceChildren(...state.games.map((g) => el("option", {value: g.id},
      `${g.name} (${g.min_seats}–${g.max_seats} players)`)));
    if (keep && state.games.some((g) => g.id === keep)) select.value = keep;
  }
  renderOptions();
}

/** Load the enrolled kits (the create form's kit list, the enroll form's suggestions). */
export async function loadKits() {
  state.kits = await api("GET", "/api/kits");
  renderKitSelect();
  $("enroll-kits").replaceChildren(...state.kits.map((k) => el("option", {value: k.name},
    `${k.game_name}: ${k.tagged ?? k.tags}/${k.total ?? "?"} tagged`)));
}

function renderKitSelect() {
  const select = $("kit");
  const keep = select.value;
  const mine = state.kits.filter((k) => k.game === $("game").value);
  select.replaceChildren(el("option", {value: ""}, "no kit (typed inputs only)"),
    ...mine.map((k) => el("option", {value: k.name},
      `${k.name} — ${k.tagged ?? k.tags}/${k.total ?? "?"} tagged`)));
  if (mine.some((k) => k.name === keep)) select.value = keep;
}

function currentGame() { return state.games.find((g) => g.id === $("game").value); }

// The data kind that an option of `game` selects (GET /api/data's `option`), if any.
function kindOf(game, option) {
  return state.dataKinds.find((k) => k.game === game.id && k.option === option.name) || null;
}

// An option's choices as {value, label, help}: the server gives them so (older servers gave bare
// values; those are shown in words as well as can be). A yes/no option is a choice too.
function choicesOf(o) {
  if (Array.isArray(o.choices) && o.choices.length) {
    return o.choices.map((c) => (c !== null && typeof c === "object"
      ? {value: c.value, label: c.label || humanize(c.value), help: c.help || "",
         default: typeof c.default === "boolean" ? c.default : c.value === o.default}
      : {value: c, label: humanize(c), help: "", default: c === o.default}));
  }
  if (typeof o.default === "boolean") {
    return [{value: true, label: "yes", help: "", default: o.default === true},
            {value: false, label: "no", help: "", default: o.default === false}];
  }
  return null;
}
const optionLabel = (o) => o.label || humanize(o.name);

/** Draw the chosen game's options (and its data choices, and its kits). Drawn again for the
 * same game (the console's start-up loads end after the organiser began), the choices made
 * stay as they were: a redraw reset them to the defaults, and the table was made without. */
export function renderOptions() {
  const game = currentGame();
  const box = $("options");
  const kept = box.dataset.game && box.dataset.game === game?.id ? chosenNow(box) : {};
  box.replaceChildren();
  box.dataset.game = game ? game.id : "";
  renderDataChoices();
  if (!game) return;
  for (const o of game.options) {
    if (kindOf(game, o)) continue;  // chosen in #data-choices
    const id = "opt-" + o.name;
    const choices = choicesOf(o);
    if (choices) {
      // A choice: one radio button per value, each with its one-line explanation; the default
      // is checked and marked. The value sent is the server's, never shown as the label.
      box.append(el("fieldset", {class: "option choice", id, "data-option": o.name},
        el("legend", {}, optionLabel(o)),
        o.help ? el("div", {class: "help"}, o.help) : null,
        choices.map((c, i) => {
          const cid = `${id}-${i}`;
          return el("div", {class: "choice-line"},
            el("input", {type: "radio", id: cid, name: id, value: String(c.value), "data-index": i,
                         checked: c.default, "aria-describedby": c.help ? cid + "-help" : null}),
            el("label", {for: cid}, c.label,
               c.default ? el("span", {class: "default"}, " (default)") : null),
            c.help ? el("div", {class: "help", id: cid + "-help"}, c.help) : null);
        })));
    } else {
      const shownDefault = o.default === null || o.default === undefined ? "" : String(o.default);
      box.append(el("div", {class: "option", "data-option": o.name},
        el("label", {for: id}, optionLabel(o)),
        el("input", {id, name: id, placeholder: shownDefault, required: o.ask, spellcheck: "false",
                     autocomplete: "off", "aria-describedby": id + "-help"}),
        el("div", {class: "help", id: id + "-help"}, o.help || "",
           shownDefault ? ` Empty: ${shownDefault} (default).` : "")));
    }
  }
  for (const [name, value] of Object.entries(kept)) {
    const field = box.querySelector(`[data-option="${CSS.escape(name)}"]`);
    const radio = field?.querySelector(`input[type=radio][value="${CSS.escape(value)}"]`);
    const text = field?.querySelector("input:not([type=radio])");
    if (radio) radio.checked = true;
    else if (text) text.value = value;
  }
  renderKitSelect();
}

/** The options' values as the form shows them now: option name -> the checked radio's value or
 * the typed text. */
function chosenNow(box) {
  const chosen = {};
  for (const field of box.querySelectorAll("[data-option]")) {
    const radio = field.querySelector("input[type=radio]:checked");
    const text = field.querySelector("input:not([type=radio])");
    if (radio) chosen[field.dataset.option] = radio.value;
    else if (text) chosen[field.dataset.option] = text.value;
  }
  return chosen;
}

/** The chosen game's data choices: a list of the complete entries of each data kind that one of
 * its options selects (incomplete ones shown, not choosable). Called again when the entries
 * change (data-editor.js). */
export function renderDataChoices() {
  // the enroll form's choice of a copy lists the same entries (enrollment.js)
  document.dispatchEvent(new Event("data-entries"));
  const game = currentGame();
  const box = $("data-choices");
  const kept = {};
  for (const s of box.querySelectorAll("select")) kept[s.dataset.option] = s.value;
  box.replaceChildren();
  if (!game) return;
  for (const o of game.options) {
    const kind = kindOf(game, o);
    if (!kind) continue;
    const id = "opt-" + o.name;
    const entries = state.dataEntries[`${kind.game}/${kind.kind}`] || [];
    const select = el("select", {id, name: id, "data-option": o.name, "data-kind": kind.kind,
                                 required: true, "aria-describedby": id + "-help"},
      el("option", {value: ""}, `— choose the ${optionLabel(o).toLowerCase()} —`),
      entries.map((e) => el("option", {value: e.name, disabled: !e.complete},
        e.name + (e.stored ? " (stored)" : "") +
        (e.sample ? ` — ${e.sample_word || "sample"}, ${e.sample_note || "made up"}` : "") +
        (e.complete ? "" : ` — incomplete (${(e.problems || []).length} to fill in)`))));
    if (entries.some((e) => e.name === kept[o.name] && e.complete)) select.value = kept[o.name];
    box.append(el("label", {for: id}, optionLabel(o)),
      el("div", {}, select,
        el("div", {class: "muted small", id: id + "-help"}, o.help || "",
           ` Enter your own under “${kind.title}” below.`)));
  }
}

// The options the organiser changed: a choice sends its value as the server gave it; a free
// value is sent as typed; what stays at its default is left out (the game decides it). A data
// choice sends the entry's name.
function chosenOptions(game) {
  const options = {};
  for (const o of game.options) {
    if (kindOf(game, o)) {
      const value = ($("opt-" + o.name) || {}).value;
      if (value) options[o.name] = value;
      continue;
    }
    const choices = choicesOf(o);
    if (choices) {
      const picked = document.querySelector(`input[name="opt-${CSS.escape(o.name)}"]:checked`);
      if (!picked) continue;
      const choice = choices[Number(picked.dataset.index)];
      if (!choice.default) options[o.name] = choice.value;
    } else {
      const value = ($("opt-" + o.name) || {}).value;
      if (value !== undefined && value.trim() !== "") options[o.name] = value.trim();
    }
  }
  return options;
}

// "reader: zone" lines (a layout file's readers: section pasted as is also works).
function parseLayout(text) {
  const layout = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\s#.*$/, "").trim();
    if (!line || line.startsWith("#") || /^(game|seats|readers)\s*:/.test(line)) continue;
    const at = line.indexOf(": ") >= 0 ? line.indexOf(": ") : line.indexOf(":");
    const where = `zone layout line ${i + 1}`;
    if (at <= 0) throw new Error(`${where}: write the reader, a colon, then its zone`);
    const reader = line.slice(0, at).trim();
    const zone = line.slice(at + 1).trim();
    if (!zone) throw new Error(`${where}: reader ${reader} has no zone`);
    if (reader in layout) throw new Error(`${where}: reader ${reader} is listed twice`);
    layout[reader] = zone;
  }
  return Object.keys(layout).length ? layout : null;
}

async function createTable(ev) {
  ev.preventDefault();
  const msg = $("create-message");
  message(msg, "");
  const game = currentGame();
  if (!game) return;
  const seatsText = $("seats").value.trim();
  const seats = /^\d+$/.test(seatsText) ? Number(seatsText)
    : seatsText.split(",").map((s) => s.trim()).filter(Boolean);
  const options = chosenOptions(game);
  for (const o of game.options) {
    if (kindOf(game, o) && !options[o.name]) {
      message(msg, `Choose the ${optionLabel(o).toLowerCase()}.`, "error");
      return;
    }
  }
  const body = {game: game.id, seats, options, name: $("table-name").value.trim(),
                start: $("start").checked};
  try {
    body.layout = parseLayout($("layout").value);
  } catch (e) { message(msg, e.message, "error"); return; }
  if ($("kit").value) body.kit = $("kit").value;
  if ($("readers-spec").value.trim()) body.readers = $("readers-spec").value.trim();
  $("create-button").disabled = true;
  try {
    const made = await api("POST", "/api/tables", body);
    message(msg, `created ${made.name || made.id} (${made.status})`, "ok");
    state.selected = made.id;
    await refreshAll();
  } catch (e) {
    message(msg, e.message, "error");
  } finally {
    $("create-button").disabled = false;
  }
}

/** Wire the form (once, at start). */
export function initCreate() {
  $("game").onchange = renderOptions;
  $("create-form").onsubmit = createTable;
}
