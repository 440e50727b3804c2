"use strict";
// Small helpers shared by the benchmark scripts: timing, statistics, inputs, formatting.

const os = require("node:os");
const v8 = require("node:v8");
const vm = require("node:vm");

/** Nanosecond clock as a bigint. */
const now = () => process.hrtime.bigint();

/** Milliseconds elapsed since `start` (a value of {@link now}). */
const msSince = (start) => Number(now() - start) / 1e6;

/** Median of numbers (mean of the middle two for an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A full garbage collection, so heap figures are not blurred by garbage left over. Uses
 * `global.gc` when node runs with `--expose-gc`, otherwise turns the flag on at run time
 * (`npm run bench` starts node without flags, and package.json is not ours to change).
 */
function collectGarbage() {
  if (typeof global.gc !== "function") {
    v8.setFlagsFromString("--expose-gc");
    global.gc = vm.runInNewContext("gc");
  }
  global.gc();
}

/**
 * Runs `fn` once to warm up, then `repeats` times, and returns every wall time in ms.
 * `fn` may be async.
 */
async function timeRepeated(fn, repeats) {
  await fn();
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const start = now();
    await fn();
    times.push(msSince(start));
  }
  return times;
}

/** `n` distinct valid messages, one Kenyan (+2547…) recipient each, as a user would build them. */
function makeMessages(n) {
  const messages = new Array(n);
  for (let i = 0; i < n; i++) {
    messages[i] = {
      tos: [`+2547${String(i % 100_000_000).padStart(8, "0")}`],
      body: `Your code is ${100000 + (i % 900000)}. It expires in 10 minutes.`,
    };
  }
  return messages;
}

/** What the output header says about the machine. */
function machineFacts() {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model?.trim() ?? "unknown",
    cores: cpus.length,
    totalMemoryMiB: Math.round(os.totalmem() / 2 ** 20),
  };
}

const MiB = 2 ** 20;
/** Bytes as MiB with one decimal. */
const mib = (bytes) => (bytes / MiB).toFixed(1);
/** A count with thousands separators. */
const count = (n) => Math.round(n).toLocaleString("en-US");

/** A plain-text table: `columns` are header names, `rows` arrays of cells; numbers right-aligned. */
function table(columns, rows) {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const widths = columns.map((name, i) => Math.max(name.length, ...cells.map((row) => row[i].length)));
  const numeric = columns.map((_, i) => rows.every((row) => typeof row[i] === "number" || /^[-+]?[\d,.]+( ?[%x])?$/.test(String(row[i]))));
  const line = (row) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(columns), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}

/**
 * Sends `message` to a child process (none when undefined) and resolves with its next reply;
 * rejects on a `{ kind: "error" }` reply or when the child exits first.
 */
function ask(child, message) {
  return new Promise((resolve, reject) => {
    const onMessage = (reply) => {
      cleanup();
      if (reply.kind === "error") reject(new Error(`bench child failed: ${reply.error}`));
      else resolve(reply);
    };
    const onExit = (code) => {
      cleanup();
      reject(new Error(`bench child exited with code ${code} before answering`));
    };
    const cleanup = () => {
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
    if (message !== undefined) child.send(message);
  });
}

/**
 * The command loop of a child process driven over IPC: `handle(message)` resolves to the
 * reply; a `{ kind: "stopped" }` reply ends the child, an error is sent as `{ kind: "error" }`.
 */
function serveCommands(handle) {
  process.on("message", (message) => {
    handle(message).then(
      (reply) => {
        process.send(reply);
        if (reply.kind === "stopped") process.disconnect();
      },
      (error) => {
        process.send({ kind: "error", error: String(error && error.stack ? error.stack : error) });
        process.exitCode = 1;
        process.disconnect();
      },
    );
  });
}

/** Runs one section on its own (`node bench/<section>.js`): progress on stderr, its rows on stdout as run.js prints them. */
function runSectionAlone(measure, print) {
  measure((text) => process.stderr.write(`bench: ${text}\n`)).then((result) => {
    const out = [];
    print(result, out);
    console.log(out.join("\n"));
  });
}

module.exports = {
  runSectionAlone,
  now,
  msSince,
  median,
  collectGarbage,
  timeRepeated,
  makeMessages,
  machineFacts,
  mib,
  count,
  table,
  MiB,
  ask,
  serveCommands,
};
