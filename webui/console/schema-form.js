// A form generated from a JSON schema (pydantic's), for the game data editor (data-editor.js).
//
// buildForm(schema, value, prefix) returns {node, read}: `node` holds the fields filled from
// `value`, `read()` gives the value the form shows now. What the form draws:
// - an object with properties: a fieldset (its title as the legend), one row per property;
// - an object whose keys are fixed (propertyNames with an enum, or "x-keys"): one row per key;
//   other maps: one row per key they hold;
// - an enum: a select, each value in its words ("x-labels" {value: words}, else the value);
// - an integer or a number: a number input; a boolean: a checkbox; a string: a text input;
// - an array: its items, each with a remove button, and an add button;
// - a map of more than LAZY_AFTER entries (a card pack's cards): each entry a line that draws
//   its fields when opened;
// - a field that may be empty (not required, or null allowed): empty means left out (or null).
// Titles and descriptions come from the schema, in words; a field without a title is named by
// its key. Keys the schema does not describe are kept as they were (read() starts from them).
import {el, humanize} from "./dom.js";

const NONE = "—";

/** The schema `node` with $ref, allOf of one and anyOf-with-null resolved: {s, nullable}. */
function resolve(root, node) {
  let s = node || {};
  let nullable = false;
  for (let guard = 0; guard < 20; guard++) {
    if (s.$ref) {
      const target = s.$ref.replace(/^#\//, "").split("/")
        .reduce((at, part) => (at ? at[part] : undefined), root) || {};
      const {$ref: _, ...rest} = s;
      s = {...target, ...rest};
    } else if (Array.isArray(s.allOf) && s.allOf.length === 1) {
      const {allOf, ...rest} = s;
      s = {...allOf[0], ...rest};
    } else if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
      const options = s.anyOf || s.oneOf;
      const real = options.filter((o) => o.type !== "null");
      if (real.length !== options.length) nullable = true;
      if (real.length !== 1) break;  // a true union: shown as text
      const {anyOf: _a, oneOf: _o, ...rest} = s;
      s = {...real[0], ...rest};
    } else break;
  }
  return {s, nullable};
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const idPart = (k) => String(k).replace(/[^A-Za-z0-9_-]/g, "_");

/** The words for `value` of an enum schema `s`. */
function enumWords(s, value) {
  const labels = s["x-labels"] || {};
  return labels[value] ?? labels[String(value)] ?? humanize(value);
}

/** A field for `node` at `path` (its keys from the top), holding `value`. */
function field(root, node, value, path, ctx) {
  const {s, nullable} = resolve(root, node.schema);
  const optional = nullable || !node.required;
  const id = `${ctx.prefix}-${path.map(idPart).join("-") || "top"}`;
  const title = node.title ?? s.title ?? humanize(path[path.length - 1] ?? "");
  const help = s.description || "";
  const dataField = path.join(".");
  // Help shows under the top fields; deeper down (the same help repeated for every location or
  // card) it is the control's tooltip, and still its description for a screen reader.
  const shown = help && path.length <= 1;
  const helpId = shown ? id + "-help" : null;
  const helpNode = shown ? el("div", {class: "help", id: helpId}, help) : null;
  const tip = help && !shown ? help : null;

  if (s.const !== undefined) {
    return {node: el("div", {class: "df-row"}, el("span", {class: "df-label"}, title),
                     el("span", {}, String(s.const))), read: () => s.const};
  }
  if (Array.isArray(s.enum)) {
    const select = el("select", {id, "data-field": dataField, "aria-describedby": helpId,
                                 title: tip},
      optional || value === undefined || value === null ? el("option", {value: ""}, NONE) : null,
      s.enum.map((v, i) => el("option", {value: String(i)}, enumWords(s, v))));
    const at = s.enum.findIndex((v) => v === value || String(v) === String(value));
    select.value = at >= 0 ? String(at) : "";
    return {node: row(id, title, select, helpNode),
            read: () => (select.value === "" ? (nullable ? null : undefined)
                                             : s.enum[Number(select.value)])};
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (type === "boolean") {
    const box = el("input", {type: "checkbox", id, "data-field": dataField, title: tip,
                             "aria-describedby": helpId, checked: value === true});
    return {node: el("div", {class: "df-row df-check"}, box, el("label", {for: id}, title),
                     helpNode),
            read: () => box.checked};
  }
  if (type === "integer" || type === "number") {
    const input = el("input", {type: "number", id, "data-field": dataField, inputmode: "numeric",
                               step: type === "integer" ? "1" : "any", min: s.minimum ?? null,
                               max: s.maximum ?? null, "aria-describedby": helpId, title: tip,
                               placeholder: s.default ?? null,
                               value: value === null || value === undefined ? "" : String(value)});
    return {node: row(id, title, input, helpNode),
            read: () => {
              const text = input.value.trim();
              if (text === "") return nullable ? null : undefined;
              const n = Number(text);
              return Number.isFinite(n) ? n : text;  // the server says what is wrong with it
            }};
  }
  if (type === "object" || s.properties || s.additionalProperties) {
    return objectField(root, s, value, path, ctx,
                       {id, title, help: shown ? help : "", tip, helpId, optional, nullable});
  }
  if (type === "array") return arrayField(root, s, value, path, ctx, {id, title, help, nullable});
  // A string, or anything the form cannot draw better: its text.
  const text = value === null || value === undefined ? ""
    : typeof value === "string" ? value : JSON.stringify(value);
  // Long text (a description) gets a box of a few lines.
  const long = text.length > 60 || text.includes("\n");
  const input = el(long ? "textarea" : "input", {id, "data-field": dataField, spellcheck: "false",
    autocomplete: "off", "aria-describedby": helpId, title: tip, rows: long ? 3 : null});
  input.value = text;
  return {node: row(id, title, input, helpNode),
          read: () => (input.value === "" && optional ? (nullable ? null : undefined)
                                                      : input.value)};
}

function row(id, title, control, helpNode) {
  return el("div", {class: "df-row"}, el("label", {for: id, class: "df-label"}, title), control,
            helpNode);
}

// An object: a fieldset of its properties, or of its fixed keys, or of the keys it holds. One
// that may be null has a "not known yet" box: ticked, the whole object is null.
function objectField(root, s, value, path, ctx, f) {
  const current = isObject(value) ? value : {};
  const rows = [];
  if (s.properties) {
    const required = new Set(s.required || []);
    for (const [key, sub] of Object.entries(s.properties)) {
      rows.push([key, field(root, {schema: sub, required: required.has(key)}, current[key],
                            [...path, key], ctx)]);
    }
  }
  const extra = s.additionalProperties;
  let lazy = false;
  if (isObject(extra)) {
    const names = resolve(root, s.propertyNames).s;
    const fixed = s["x-keys"] || names.enum || null;
    const keys = fixed || Object.keys(current).filter((k) => !(s.properties || {})[k]);
    // A long map (a card pack's 304 cards) draws each entry only when it is opened: thousands
    // of fields drawn at once kept the console busy for seconds on every load.
    lazy = !fixed && keys.length > LAZY_AFTER;
    for (const key of keys) {
      const label = names.enum ? enumWords(names, key) : String(key);
      const at = [...path, String(key)];
      const make = () => field(root, {schema: extra, required: false, title: label},
                               current[key], at, ctx);
      rows.push([String(key), lazy ? lazyField(make, label, current[key], at) : make()]);
    }
  }
  // Layout: small fields side by side (df-flat), fieldsets side by side (df-sets), else a
  // column (and a long map's entries, one line each until opened).
  const sets = rows.filter(([, r]) => r.node.matches("fieldset")).length;
  const layout = lazy ? "" : !sets ? " df-flat" : sets === rows.length ? " df-sets" : "";
  const legend = path.length ? el("legend", {}, f.title) : null;
  const unknown = f.nullable && path.length
    ? el("input", {type: "checkbox", id: f.id + "-unknown", class: "df-unknown",
                   "data-field": path.join(".") + ":unknown",
                   checked: value === null || value === undefined})
    : null;
  const set = el("fieldset", {class: "df-object" + layout, title: f.tip,
                              "data-field": path.join("."),
                              "aria-describedby": f.help && path.length ? f.helpId : null},
    legend,
    f.help && path.length ? el("div", {class: "help", id: f.helpId}, f.help) : null,
    unknown ? el("div", {class: "df-check"}, unknown,
                 el("label", {for: unknown.id}, "not known yet")) : null,
    el("div", {class: "df-rows"}, rows.map(([, r]) => r.node)));
  if (unknown) unknown.onchange = () => syncUnknown(set.closest(".df-top") || set);
  return {node: set, read: () => {
    if (unknown && unknown.checked) return null;
    const out = {...current};
    for (const [key, r] of rows) {
      const v = r.read();
      if (v === undefined) delete out[key]; else out[key] = v;
    }
    // Known but empty is {} (e.g. "no icons"); an optional object nobody filled in is left out.
    if (!unknown && !Object.keys(out).length && f.optional && path.length) return undefined;
    return out;
  }};
}

const LAZY_AFTER = 40;  // a map with more entries than this draws each one when it is opened

// One entry of a long map, drawn when it is first opened: its key and name as a line, then its
// fields. Until then it reads as the value it was given.
function lazyField(make, label, value, path) {
  let built = null;
  const name = isObject(value) && typeof value.name === "string" && value.name
    ? `: ${value.name}` : "";
  const details = el("details", {class: "df-lazy", "data-entry-field": path.join(".")},
                     el("summary", {}, label + name));
  details.addEventListener("toggle", () => {
    if (!details.open || built) return;
    built = make();
    details.append(built.node);
    syncUnknown(built.node);
  });
  return {node: details, read: () => (built ? built.read() : value)};
}

// An array: each item a field with a remove button; an add button below. Removing an item
// draws the others again, numbered anew (their fields and ids follow their place).
function arrayField(root, s, value, path, ctx, f) {
  let items = [];  // the fields of the items, in order
  const list = el("div", {class: "df-items"});
  const draw = (values) => {
    items = values.map((v, at) => field(root, {schema: s.items || {}, required: true,
                                               title: `${f.title} ${at + 1}`},
                                        v, [...path, String(at)], ctx));
    list.replaceChildren(...items.map((item, at) => el("div", {class: "df-item"}, item.node,
      el("button", {type: "button", class: "tiny danger", "data-remove": at,
                    "aria-label": `remove ${f.title} ${at + 1}`, onclick: () => {
                      const kept = items.map((i) => i.read());
                      kept.splice(at, 1);
                      draw(kept);
                    }}, "remove"))));
  };
  draw(Array.isArray(value) ? value : []);
  return {node: el("fieldset", {class: "df-object", "data-field": path.join(".")},
                   el("legend", {}, f.title), f.help ? el("div", {class: "help"}, f.help) : null,
                   list, el("button", {type: "button", class: "tiny", "data-add": path.join("."),
                                       onclick: () => draw([...items.map((i) => i.read()),
                                                            undefined])}, `add ${f.title}`)),
          read: () => {
            if (!items.length && f.nullable && (value === null || value === undefined)) return null;
            return items.map((i) => i.read()).filter((v) => v !== undefined);
          }};
}

// A control inside an object marked "not known yet" (its own or an enclosing one) is disabled.
function syncUnknown(root) {
  for (const c of root.querySelectorAll("input, select, textarea, button")) {
    let off = false;
    for (let set = c.closest("fieldset.df-object"); set && root.contains(set);
         set = set.parentElement && set.parentElement.closest("fieldset.df-object")) {
      const box = set.querySelector(":scope > .df-check > input.df-unknown");
      if (box && box !== c && box.checked) { off = true; break; }
    }
    c.disabled = off;
  }
}

/** The form for `schema` (the whole entry), filled from `value`; ids start with `prefix`. */
export function buildForm(schema, value, prefix) {
  const top = field(schema, {schema, required: true}, value, [], {prefix});
  top.node.classList.add("df-top");
  syncUnknown(top.node);
  return {node: top.node, read: () => top.read()};
}

// -- YAML text ---------------------------------------------------------------------------------
// The form's value as YAML text, for the text box and for copying. Plain block style; a string
// that YAML would read as something else (a number, yes/no, a date, text with ": " or "#") is
// quoted. The server reads it back with its own checks.

const PLAIN = /^[A-Za-z_À-ɏ][A-Za-z0-9_ À-ɏ.,'()&/+-]*$/;
const WORDS = /^(true|false|yes|no|on|off|null|y|n|~)$/i;

function scalar(v) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean" || typeof v === "number") return String(v);
  const text = String(v);
  const plain = PLAIN.test(text) && !WORDS.test(text) && text.trim() === text;
  return plain ? text : JSON.stringify(text);
}
const key = (k) => (/^-?\d+$/.test(String(k)) ? String(k) : scalar(k));

/** `value` as YAML text (block style). */
export function toYaml(value, indent = "") {
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    return value.map((v) => `${indent}- ${toYaml(v, indent + "  ").trimStart()}`).join("\n");
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (!entries.length) return "{}";
    return entries.map(([k, v]) => {
      const nested = (isObject(v) && Object.keys(v).length) || (Array.isArray(v) && v.length);
      return nested ? `${indent}${key(k)}:\n${toYaml(v, indent + "  ")}`
                    : `${indent}${key(k)}: ${toYaml(v, indent + "  ")}`;
    }).join("\n");
  }
  return scalar(value);
}
