"use strict";
// Section 9 of bench/run.js (also runs alone: `node bench/long-line.js`): reading one 20 MB
// line against the same bytes split into 1,000 lines, through the CLI's file reader
// (`readEntries` of dist/message-file.js: line splitting, UTF-8 check, the strict JSON
// rule, the per-message size check). The floor is `fs.readFile` plus `JSON.parse` of each line.
// Minor page faults are printed beside each time: a long line's cost beyond its bytes would be
// memory newly mapped in (V8 copies a string over 128 KiB into a large-object page of its own,
// as JSON.parse does with the 20 MiB body; the reader takes it as a slice of the line), and the
// faults count that independently of the machine's load.

const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { readEntries } = require("../dist/message-file");
const { collectGarbage, median, msSince, now, runSectionAlone } = require("./lib");

const TOTAL_BYTES = 20 * 1024 * 1024;
const SPLIT_LINES = 1_000;
const RUNS = 5;

/** One NDJSON message of about `bytes` bytes, its body filled with varied text. */
function messageLine(bytes, seed) {
  const filler = `Line ${seed}: the quick brown fox jumps over the lazy dog, 0123456789. `;
  const body = filler.repeat(Math.ceil(bytes / filler.length)).slice(0, bytes - 40);
  return JSON.stringify({ tos: ["+254712345678"], body });
}

async function readAll(file) {
  let entries = 0;
  for await (const batch of readEntries(file, "ndjson")) entries += batch.length;
  return entries;
}

async function floor(file) {
  const text = await fs.promises.readFile(file, "utf8");
  let entries = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    JSON.parse(line);
    entries++;
  }
  return entries;
}

/** Median wall time of `fn` in ms, and the median of the minor page faults it took (memory newly mapped in). */
async function timeIt(fn) {
  await fn();
  const times = [];
  const faults = [];
  for (let i = 0; i < RUNS; i++) {
    // Each run starts with an empty heap: the last run's garbage is not billed to this one.
    collectGarbage();
    const faultsBefore = process.resourceUsage().minorPageFault;
    const start = now();
    await fn();
    times.push(msSince(start));
    faults.push(process.resourceUsage().minorPageFault - faultsBefore);
  }
  return { ms: median(times), faults: median(faults) };
}

async function longLine(progress = () => {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-bench-line-"));
  try {
    const single = path.join(dir, "single.ndjson");
    const split = path.join(dir, "split.ndjson");
    fs.writeFileSync(single, `${messageLine(TOTAL_BYTES, 0)}\n`);
    fs.writeFileSync(split, Array.from({ length: SPLIT_LINES }, (_, i) => `${messageLine(TOTAL_BYTES / SPLIT_LINES, i)}\n`).join(""));
    progress(`long line: readEntries of one ${TOTAL_BYTES / 1024 / 1024} MiB line and of ${SPLIT_LINES} lines (${RUNS} runs each)`);
    // Smaller single lines, to show the cost grows in proportion to the bytes (not quadratically).
    const scaling = [];
    for (const mib of [5, 10]) {
      const file = path.join(dir, `single-${mib}.ndjson`);
      fs.writeFileSync(file, `${messageLine(mib * 1024 * 1024, 0)}\n`);
      scaling.push({ mib, ...(await timeIt(() => readAll(file))) });
    }
    const result = {
      scaling,
      bytesSingle: fs.statSync(single).size,
      bytesSplit: fs.statSync(split).size,
      single: await timeIt(() => readAll(single)),
      split: await timeIt(() => readAll(split)),
      floorSingle: await timeIt(() => floor(single)),
      floorSplit: await timeIt(() => floor(split)),
    };
    // JSON.parse alone, of the lines already in memory: what building the values costs, the
    // part of the gap no reader can avoid while it hands out the parsed message.
    const singleText = fs.readFileSync(single, "utf8").trimEnd();
    const splitTexts = fs.readFileSync(split, "utf8").split("\n").filter(Boolean);
    result.parseSingle = await timeIt(() => JSON.parse(singleText));
    result.parseSplit = await timeIt(() => splitTexts.forEach((line) => JSON.parse(line)));
    result.ratio = result.single.ms / result.split.ms;
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function printLongLine(r, out) {
  out.push(
    `9. Reading one ${(r.bytesSingle / 1024 / 1024).toFixed(0)} MiB line vs the same bytes in ${SPLIT_LINES} lines (readEntries, NDJSON; median of ${RUNS}; budget: ratio <= 2)`,
  );
  const run = (x) => `${x.ms.toFixed(0)} ms (${x.faults} page faults)`;
  out.push(`   one line: ${run(r.single)}; ${SPLIT_LINES} lines: ${run(r.split)}; ratio ${r.ratio.toFixed(2)}`);
  out.push(`   one line of ${r.scaling.map((x) => `${x.mib} MiB: ${run(x)}`).join(", ")} (time in proportion to the bytes)`);
  out.push(`   floor (fs.readFile + JSON.parse per line): one line ${run(r.floorSingle)}; ${SPLIT_LINES} lines ${run(r.floorSplit)}`);
  out.push(
    `   JSON.parse alone (text in memory): one line ${run(r.parseSingle)}; ${SPLIT_LINES} lines ${run(r.parseSplit)}; ratio ${(r.parseSingle.ms / r.parseSplit.ms).toFixed(2)}`,
  );
  out.push(
    "   (a string over 128 KiB is copied into a new large-object page of the V8 heap, mapped in page by page: JSON.parse of the one line does so for its 20 MiB body; readEntries takes it as a slice of the line, schemas/json-slices.ts)",
  );
}

module.exports = { longLine, printLongLine };

if (require.main === module) runSectionAlone(longLine, printLongLine);
