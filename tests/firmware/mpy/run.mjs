// Runs Python code on real MicroPython: the WebAssembly port from the npm registry
// (@micropython/micropython-webassembly-pyscript, installed by `make test` into .venv/mpy).
//
//   node run.mjs PACKAGE_DIR JOB.json
//
// JOB.json is {"files": {"/abs/path.py": "text", ...}, "main": "python source",
// "heapsize": bytes}. The files are written into MicroPython's in-memory filesystem first
// (directories made as needed); then "main" runs with the working directory "/". One JSON
// object goes to stdout: {"ok": true, "result": <the str MicroPython left in the global
// RESULT, or null>, "output": <what it printed>} or, when the code raised,
// {"ok": false, "type": "ImportError", "message": <MicroPython's traceback>, "output": ...}.
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
const decoder = new TextDecoder();
const mp = await loadMicroPython({
  heapsize: job.heapsize || 4 * 1024 * 1024,
  linebuffer: false,
  stdout: (bytes) => printed.push(decoder.decode(bytes, { stream: true })),
  stderr: (bytes) => printed.push(decoder.decode(bytes, { stream: true })),
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
answer.output = printed.join("");
process.stdout.write(JSON.stringify(answer) + "\n");
