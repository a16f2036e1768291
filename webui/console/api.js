// The organiser token and the API: every call carries the token, kept in localStorage under
// "scorekeeper.organiser". Without an accepted token the console shows nothing but the token
// box: no tables, no buttons that would only be refused.
import {$, el} from "./dom.js";
import {state, TOKEN_KEY} from "./state.js";

/** A refusal or failure from the server; `message` is its words, `body` its JSON. */
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `the server answered ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** Call the API as the organiser: the JSON answer, or an ApiError. A 401 locks the console. */
export async function api(method, path, body) {
  const headers = {};
  if (state.token) headers.Authorization = "Bearer " + state.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, {method, headers,
                             body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    throw new ApiError(0, {error: "the server does not answer; is it running?"});
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = {error: text}; }
  if (res.status === 401 && path !== "/api/tables") lock(WRONG_TOKEN);
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** GET `path` as the organiser and hand it to the browser as a file called `filename`. */
export async function download(path, filename) {
  const res = await fetch(path, {headers: {Authorization: "Bearer " + state.token}});
  if (!res.ok) {
    let msg = `the server answered ${res.status}`;
    try { msg = (await res.json()).error || msg; } catch (e) { /* not JSON */ }
    throw new ApiError(res.status, {error: msg});
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = el("a", {href: url, download: filename});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

export const WHERE_TOKEN = "The server printed the organiser token " +
  "when it first started and saved it next to its database: var/organiser-token " +
  "(var/demo.organiser-token for make demo). Lost it? Start the server once with " +
  "--new-organiser-token to make a new one.";
export const WRONG_TOKEN = "This is not the organiser token. " + WHERE_TOKEN;

/** Show only the token box; `message` says why (a wrong token). */
export function lock(message) {
  state.unlocked = false;
  document.body.classList.add("locked");
  $("token-form").hidden = false;
  $("token-change").hidden = true;
  $("token-state").textContent = message ? "wrong token" : "no token";
  $("token-state").className = "badge bad";
  $("token-error").textContent = message || "";
  $("token-error").hidden = !message;
}

export function unlock() {
  state.unlocked = true;
  document.body.classList.remove("locked");
  $("token-form").hidden = true;
  $("token-error").hidden = true;
  $("token-change").hidden = false;
  $("token-state").textContent = "organiser";
  $("token-state").className = "badge ok";
}

/** Is `given` the organiser token? true, false (refused), or null (the server did not answer). */
export async function tokenAccepted(given) {
  try {
    const res = await fetch("/api/kits", {headers: {Authorization: "Bearer " + given}});
    if (res.status === 401 || res.status === 403) return false;
    return res.ok ? true : null;
  } catch (e) { return null; }
}

/** Keep `given` as the token, in this browser. */
export function saveToken(given) {
  state.token = given;
  if (given) localStorage.setItem(TOKEN_KEY, given); else localStorage.removeItem(TOKEN_KEY);
}
