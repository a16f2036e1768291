// Runs Python code on real MicroPython: the WebAssembly port from the npm registry
// (@micropython/micropython-webassembly-pyscript, installed by `make test` into .venv/mpy).
//
//   node run.mjs PACKAGE_DIR JOB.json
//
// JOB.json is {"files": {"/abs/path.py": "text", ...}, "main": "python source",
// "stdin": [[ms, "hex"], ...], "heapsize": bytes}. The files are written into MicroPython's
// in-memory filesystem first (directories made as needed); then "main" runs with the working
// directory "/". Its sys.stdin gets the "stdin" bytes once "ms" milliseconds (wall clock) have
// passed since it first wrote to stdout (the bridge's HELLO: its imports and its boot take a
// while first); before that, and after them, a read finds nothing (b"").
// One JSON object goes to stdout: {"ok": true, "result": <the str MicroPython left in the
// global RESULT, or null>, "output": <what it wrote to stdout, as text>, "output_hex": <the same
// bytes in hex>} or, when the code raised, {"ok": false, "type": "ImportError", "message":
// <MicroPython's traceback>, "output": ..., "output_hex": ...}.
// tests/firmware/test_micropython.py is the caller.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, jobPath] = process.argv.slice(2);
if (!packageDir || !jobPath) {
  process.stderr.write("usage: node run.mjs PACKAGE_DIR JOB.json\n");
  process.exit(2);
}
const job = JSON.parse(readFileSync(jobPath, "utf8"));
const { loadMicroPython } = await import(
  pathToFileURL(join(packageDir, "micropython.mjs")).href);

const printed = [];
const feed = (job.stdin || []).map(([ms, hex]) => [ms, Buffer.from(hex, "hex")]);
const ready = [];
let started = null; // when MicroPython first wrote to stdout
// Called for each byte MicroPython reads from stdin; null means "nothing there now".
function stdin() {
  if (started === null) return null;
  const now = Date.now() - started;
  while (feed.length && feed[0][0] <= now) ready.push(...feed.shift()[1]);
  return ready.length ? ready.shift() : null;
}
const mp = await loadMicroPython({
  heapsize: job.heapsize || 4 * 1024 * 1024,
  linebuffer: false,
  stdin,
  stdout: (bytes) => {
    if (started === null) started = Date.now();
    printed.push(...bytes);
  },
  stderr: (bytes) => printed.push(...bytes),
});

for (const [path, text] of Object.entries(job.files || {})) {
  const dir = path.slice(0, path.lastIndexOf("/"));
  if (dir) mp.FS.mkdirTree(dir);
  mp.FS.writeFile(path, text);
}

let answer;
try {
  mp.runPython(job.main);
  const result = mp.globals.get("RESULT");
  answer = { ok: true, result: result === undefined ? null : result };
} catch (error) {
  if (error.name !== "PythonError") throw error; // a broken runner, not a Python error
  answer = { ok: false, type: error.type, message: error.message };
}
const output = Buffer.from(printed);
answer.output = new TextDecoder().decode(output);
answer.output_hex = output.toString("hex");
process.stdout.write(JSON.stringify(answer) + "\n");
