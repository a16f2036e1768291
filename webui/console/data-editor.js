// The game data editor: one section per data kind of every game (a board profile, a card pack),
// all of it from the API (GET /api/data and its routes; scorekeeper/api/data_routes.py):
// the kind's title and help, its game's name, its entries (samples labelled as such), and a
// form generated from the kind's JSON schema (schema-form.js) or its YAML text. An entry is
// started from another one, checked (what is missing or wrong, in words, with line and field),
// saved under a name, exported as YAML or CSV, and a stored one deleted.
import {$, el, badge, say, fill} from "./dom.js";
import {api, download} from "./api.js";
import {confirmDialog} from "./dialogs.js";
import {state} from "./state.js";
import {renderOptions, renderDataChoices} from "./create.js";
import {buildForm, toYaml} from "./schema-form.js";
import {plural} from "../kit.js";

// The entry's own fields (core/data.py: every entry has them at its top): the name is the
// "Save as" box and `sample` is the server's to say, so neither is drawn in the form.
const OWN = ["name", "sample"];
const editors = {};  // "game/kind" -> the editor of that kind (see editorFor)

const keyOf = (kind) => `${kind.game}/${kind.kind}`;
const pathOf = (kind) =>
  `/api/data/${encodeURIComponent(kind.game)}/${encodeURIComponent(kind.kind)}`;
// ", a sample" after "shipped with scorekeeper"; a kind with its own word says it ("assumed"),
// with its note less the "shipped with scorekeeper" this follows.
const shippedWords = (kind) => {
  if (!kind.sample_word || kind.sample_word === "sample") return ", a sample";
  const note = (kind.sample_note || "").replace(/^shipped with scorekeeper,\s*/, "");
  return `, ${kind.sample_word}: ${note}`;
};
const idOf = (kind) => `data-${kind.game}-${kind.kind}`.replace(/[^A-Za-z0-9_-]/g, "_");

/** Load every data kind and its entries; draw a section for each (once), and the create form's
 * data choices. A server without data kinds shows none. */
export async function loadData() {
  state.dataKinds = await api("GET", "/api/data");
  await Promise.all(state.dataKinds.map(loadEntries));
  const box = $("data-sections");
  for (const kind of state.dataKinds) {
    let ed = editors[keyOf(kind)];
    if (ed) { drawList(ed); continue; }  // loaded again (a new token): what is typed stays
    ed = editorFor(kind);
    editors[keyOf(kind)] = ed;
    box.append(ed.section);
    drawList(ed);
    await ed.startFrom(defaultEntry(kind), true).catch((e) => ed.problem(e.message));
  }
  renderOptions();  // the options a data kind selects move from the options to the data choices
}

async function loadEntries(kind) {
  state.dataEntries[keyOf(kind)] = await api("GET", pathOf(kind));
}

// What the editor starts with: the first sample that is not complete (a template of what is
// printed on every copy, to fill in), else the first entry.
function defaultEntry(kind) {
  const entries = state.dataEntries[keyOf(kind)] || [];
  const first = entries.find((e) => !e.stored && !e.complete) || entries[0];
  return first ? first.name : null;
}

function drawList(ed) {
  const entries = state.dataEntries[keyOf(ed.kind)] || [];
  fill(ed.list, el("thead", {}, el("tr", {}, ["Name", "What it is", "State", "Actions"]
    .map((h) => el("th", {}, h)))),
  el("tbody", {}, entries.map((e) => el("tr", {"data-entry": e.name},
    el("td", {}, el("strong", {}, e.name), " ",
       e.sample ? badge(e.sample_word || "sample", "quiet")
         : e.stored ? badge("stored") : badge("shipped")),
    el("td", {}, e.description || ""),
    el("td", {}, e.complete ? badge("complete", "ok")
      : el("span", {title: (e.problems || []).join("; ")},
           `incomplete: ${(e.problems || []).length} to fill in`)),
    el("td", {}, el("div", {class: "actions"},
      el("button", {type: "button", "data-action": "open",
                    "aria-label": `${e.stored ? "open" : "start from"} ${e.name}`,
                    onclick: () => ed.startFrom(e.name).catch((x) => ed.problem(x.message))},
         e.stored ? "Open" : "Start from"),
      ["yaml", "csv"].map((fmt) => el("button", {type: "button", "data-action": `export-${fmt}`,
        "aria-label": `download ${e.name} as ${fmt.toUpperCase()}`,
        onclick: () => exportEntry(ed.kind, e.name, fmt)}, fmt.toUpperCase())),
      e.stored ? el("button", {type: "button", class: "danger", "data-action": "delete",
                               "aria-label": `delete ${e.name}`,
                               onclick: () => ed.remove(e.name)}, "Delete…") : null))))));
}

async function exportEntry(kind, name, fmt) {
  try {
    await download(`${pathOf(kind)}/${encodeURIComponent(name)}/export?format=${fmt}`,
                   `${name}.${fmt}`);
    say(`${name} downloaded as ${name}.${fmt}`);
  } catch (e) { say(`${name}: ${e.message}`, true); }
}

// One kind's section and its editor: {kind, section, list, startFrom, problem, remove}.
function editorFor(kind) {
  const id = idOf(kind);
  const ed = {kind, schema: null, form: null, mode: "form", loaded: null, own: {}};
  const name = el("input", {id: id + "-name", "data-role": "name", spellcheck: "false",
                            autocomplete: "off", size: 30,
                            placeholder: "a name for yours, e.g. club-copy"});
  const problems = el("div", {class: "problems", "data-role": "problems", role: "status"});
  const formBox = el("div", {class: "data-form", "data-role": "form"});
  const yaml = el("textarea", {id: id + "-yaml", "data-role": "yaml", rows: 16, spellcheck: "false",
                               "aria-label": `${kind.title}: the entry as YAML text`});
  const file = el("input", {type: "file", id: id + "-file", accept: ".yaml,.yml,.csv,.txt",
                            "data-role": "file"});
  const yamlBox = el("div", {"data-role": "yaml-box", hidden: true}, yaml);
  const editing = el("p", {class: "muted small", "data-role": "editing"});
  const modeButton = (mode, text) => el("button", {type: "button", "data-mode": mode,
    "aria-pressed": String(mode === "form"), onclick: () => switchMode(mode)}, text);
  const modes = [modeButton("form", "Form"), modeButton("yaml", "YAML text")];
  const del = el("button", {type: "button", class: "danger", "data-action": "delete-loaded",
                            hidden: true, onclick: () => ed.loaded && ed.remove(ed.loaded.name)},
                 "Delete…");
  ed.list = el("table", {class: "list small entries"});
  ed.section = el("section", {class: "data-kind", "data-kind": keyOf(kind),
                              "aria-labelledby": id + "-title"},
    el("h2", {id: id + "-title"}, kind.title),
    el("p", {class: "muted small", "data-role": "about"}, `for ${kind.game_name}`,
       kind.help ? ` · ${kind.help}` : ""),
    el("div", {class: "scroll", tabindex: "0", role: "region",
               "aria-label": `${kind.title}: the entries`}, ed.list),
    el("div", {class: "section-head"}, el("h3", {}, "Edit"),
       el("button", {type: "button", class: "tiny", "data-action": "start-empty",
                     onclick: () => ed.startFrom(null)}, "Start empty")),
    editing,
    el("div", {class: "row"},
      el("label", {for: name.id}, "Save as"), name,
      el("button", {type: "button", "data-action": "check", onclick: () => check()}, "Check"),
      el("button", {type: "button", class: "primary", "data-action": "save",
                    onclick: () => save()}, "Save"),
      del),
    problems,
    el("div", {class: "row"},
      el("span", {class: "row", role: "group", "aria-label": "edit as"}, modes),
      el("label", {for: file.id, class: "small"}, "or read a YAML or CSV file"), file),
    formBox, yamlBox);

  ed.problem = (text) => fill(problems, el("div", {class: "error-text"}, text));
  const show = (result, note) => {
    const data = result.data || {};
    const label = data.name || name.value || "this entry";
    const list = result.problems || [];
    fill(problems, note ? el("div", {class: "ok-text"}, note) : null,
      result.complete
        ? el("div", {class: "ok-text"},
             `${label}: complete — nothing to fill in; it can start a table.`)
        : el("div", {}, el("strong", {}, `${label}: ${plural(list.length, "thing")} to fill in`),
             el("ul", {}, list.map((p) => el("li", {}, p)))));
  };
  const draw = (data) => {
    ed.own = Object.fromEntries(OWN.map((k) => [k, data[k]]));
    const rest = Object.fromEntries(Object.entries(data).filter(([k]) => !OWN.includes(k)));
    const schema = {...ed.schema, properties: Object.fromEntries(
      Object.entries(ed.schema.properties || {}).filter(([k]) => !OWN.includes(k)))};
    ed.form = buildForm(schema, rest, id);
    formBox.replaceChildren(ed.form.node);
    if (ed.mode === "yaml") yaml.value = toYaml(read());
  };
  // The entry the editor shows now, with its own fields put back.
  const read = () => {
    const data = {...ed.own, ...ed.form.read()};
    if (name.value.trim()) data.name = name.value.trim();
    return data;
  };
  const body = () => (ed.mode === "yaml" ? {yaml: yaml.value} : {data: read()});
  const setMode = (mode) => {
    ed.mode = mode;
    for (const b of modes) b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
    formBox.hidden = mode !== "form";
    yamlBox.hidden = mode !== "yaml";
  };
  // Text to form: the server reads the text first, and a text it cannot read stays, with what
  // is wrong (line and field).
  const switchMode = async (mode) => {
    if (mode === ed.mode) return;
    if (mode === "yaml") {
      // The server's YAML of the form's value (as an export writes it); a value it refuses is
      // written out here, with what is wrong, to be fixed in the text.
      try {
        yaml.value = (await api("POST", `${pathOf(kind)}/check`, {data: read()})).yaml ||
          toYaml(read());
      } catch (e) {
        yaml.value = toYaml(read());
        ed.problem(e.message);
      }
    } else {
      try {
        const result = await api("POST", `${pathOf(kind)}/check`, {yaml: yaml.value});
        draw(result.data || {});
        show(result);
      } catch (e) { ed.problem(e.message); return; }
    }
    setMode(mode);
  };

  // The last entry asked for wins: the first one, loaded at start, may still be on its way when
  // the organiser starts from another.
  let asked = 0;
  ed.startFrom = async (entryName, quiet = false) => {
    const mine = ++asked;
    if (!ed.schema) ed.schema = await api("GET", `${pathOf(kind)}/schema`);
    const got = entryName
      ? await api("GET", `${pathOf(kind)}/${encodeURIComponent(entryName)}`) : null;
    if (mine !== asked) return;
    if (!got) {
      name.value = "";
      ed.loaded = null;
      del.hidden = true;
      editing.textContent = "A new, empty entry: give it a name under “Save as” and fill it in.";
      setMode("form");  // an empty text would be no start: the form shows what there is to fill
      draw({});
      problems.replaceChildren();
      return;
    }
    const data = {...got.data};
    if (!got.stored) {
      // A copy of a sample keeps its sample mark until saved (made-up data stays labelled), and
      // its name until it is given one under "Save as".
      data.description = `started from ${got.name}; fill it in from your own copy`;
    }
    name.value = got.stored ? got.name : "";
    ed.loaded = {name: got.name, stored: got.stored};
    del.hidden = !got.stored;
    editing.textContent = got.stored ? `Editing ${got.name} (stored).`
      : `A copy of ${got.name} (shipped with scorekeeper${got.sample ? shippedWords(kind) : ""}): ` +
        "give it your own name under “Save as” and fill it in.";
    draw(data);
    // Which load the form shows (a test hook): a load asked while one was on its way redraws
    // the same entry, and what was typed in between is gone.
    editing.dataset.load = String(mine);
    if (quiet) problems.replaceChildren(); else show(got);
  };
  const check = async () => {
    try {
      const result = await api("POST", `${pathOf(kind)}/check`, body());
      show(result);
      return result;
    } catch (e) { ed.problem(e.message); return null; }
  };
  const save = async () => {
    let entryName = name.value.trim();
    if (!entryName && ed.mode === "yaml") {
      const checked = await check();
      if (!checked) return;
      entryName = (checked.data || {}).name || "";
    }
    if (!entryName) {
      ed.problem("Give it a name first, under “Save as”.");
      name.focus();
      return;
    }
    try {
      const saved = await api("PUT", `${pathOf(kind)}/${encodeURIComponent(entryName)}`, body());
      name.value = saved.name;
      ed.loaded = {name: saved.name, stored: true};
      del.hidden = false;
      editing.textContent = `Editing ${saved.name} (stored).`;
      draw(saved.data || {});
      show(saved, `Saved as ${saved.name}` + (saved.complete
        ? `: it can be chosen for a new ${kind.game_name} table.`
        : " (incomplete: it can be finished later)."));
      await loadEntries(kind);
      drawList(ed);
      renderDataChoices();  // the options the organiser chose in the form stay as they are
    } catch (e) { ed.problem(e.message); }
  };
  ed.remove = async (entryName) => {
    const ok = await confirmDialog(`Delete ${entryName}?`, [
      `The stored entry ${entryName} is deleted for good. Tables already made with it keep ` +
      "their copy."], `Delete ${entryName}`);
    if (!ok) return;
    try {
      await api("DELETE", `${pathOf(kind)}/${encodeURIComponent(entryName)}`);
      say(`${entryName} is deleted.`);
      await loadEntries(kind);
      drawList(ed);
      renderDataChoices();  // the options the organiser chose in the form stay as they are
      if (ed.loaded && ed.loaded.name === entryName) await ed.startFrom(defaultEntry(kind), true);
    } catch (e) { say(`${entryName}: ${e.message}`, true); }
  };
  // A file read from this computer: checked by the server, then shown in the form; YAML the
  // server cannot read is shown as text, with what is wrong.
  file.onchange = async () => {
    const picked = file.files && file.files[0];
    if (!picked) return;
    const text = await picked.text();
    const csv = /\.csv$/i.test(picked.name);
    file.value = "";
    if (!name.value.trim()) name.value = picked.name.replace(/\.[^.]*$/, "");
    try {
      const result = await api("POST", `${pathOf(kind)}/check`, csv ? {csv: text} : {yaml: text});
      draw(result.data || {});
      setMode("form");
      show(result, `Read ${picked.name}.`);
    } catch (e) {
      if (!csv) { yaml.value = text; setMode("yaml"); }
      ed.problem(`${picked.name}: ${e.message}`);
    }
  };
  return ed;
}
