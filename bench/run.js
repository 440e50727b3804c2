"use strict";
// `npm run bench`: speed and memory of the compiled package (dist/), outside the tests.
// Prints tables, or JSON with --json. See bench/README.md for what each figure means.

const { fork } = require("node:child_process");
const path = require("node:path");
const { MAX_MESSAGES_PER_BATCH } = require("../dist/schemas");
const { ask, count, machineFacts, median, mib, msSince, now, table } = require("./lib");
const { emulatorLoad, printEmulatorLoad } = require("./emulator-load");
const { requireTimes } = require("./require-time");
const { sendFile } = require("./send-file");
const { longLine, printLongLine } = require("./long-line");
const { emulatorFlood, printEmulatorFlood } = require("./emulator-flood");
const { unchangedUp, printUnchangedUp } = require("./unchanged-up");

const asJson = process.argv.includes("--json");
// `--only 5,8`: run those sections only (the others are left out of the report).
const onlyArg = process.argv.indexOf("--only");
const only = onlyArg === -1 ? undefined : new Set(process.argv[onlyArg + 1].split(",").map(Number));
const runs = (section) => only === undefined || only.has(section);
// Progress goes to stderr so that stdout holds only the report (or the JSON).
const progress = (text) => process.stderr.write(`bench: ${text}\n`);

const FAULTS = { failureRate: 0.1, seed: 42 };

/* ---------------------------------------------------------------- 1. chunked sending */

const SEND_CASES = [
  { messages: 10_000, concurrency: 1, faults: false, repeats: 5 },
  { messages: 10_000, concurrency: 4, faults: false, repeats: 5 },
  { messages: 100_000, concurrency: 1, faults: false, repeats: 3 },
  { messages: 100_000, concurrency: 4, faults: false, repeats: 3 },
  { messages: 100_000, concurrency: 1, faults: true, repeats: 3 },
  { messages: 100_000, concurrency: 4, faults: true, repeats: 3 },
];

/** Starts a bench helper script as a child process with an IPC channel and `gc()`. */
function startChild(script) {
  return fork(path.join(__dirname, script), [], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

/** Resolves when the child has exited (at once if it already has). */
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", resolve));
}

async function sendCase({ messages, concurrency, faults, repeats }) {
  progress(`send ${count(messages)} messages, concurrency ${concurrency}${faults ? ", faults" : ""} (${repeats} runs)`);
  // Three processes: this one only directs; the emulator and the client each have their own,
  // so each one's memory is its own and they do not share a CPU core's event loop.
  const host = startChild("emulator-host.js");
  const sender = startChild("send-case.js");
  try {
    const { url, apiKey } = await ask(host, { cmd: "start" });
    const ready = await ask(sender, { cmd: "init", url, apiKey, messages, concurrency });
    const warmUpBatches = Math.ceil(Math.min(10_000, messages) / MAX_MESSAGES_PER_BATCH);
    const runs = [];
    for (let i = 0; i < repeats; i++) {
      // Same seed every run: the same sequence of faults (exactly so at concurrency 1).
      if (faults) await ask(host, { cmd: "faults", settings: FAULTS });
      const before = (await ask(host, { cmd: "requests" })).count;
      const run = await ask(sender, { cmd: "run" });
      run.requests = (await ask(host, { cmd: "requests" })).count - before;
      if (faults) await ask(host, { cmd: "faults", settings: { failureRate: 0 } });
      runs.push(run);
    }
    const done = await ask(sender, { cmd: "done" });
    const stats = await ask(host, { cmd: "stats" });
    await ask(host, { cmd: "stop" });
    const acceptedBatches = warmUpBatches + runs.reduce((n, run) => n + run.batches, 0);

    const wall = median(runs.map((run) => run.wallMs));
    return {
      messages,
      concurrency,
      faults: faults ? FAULTS : null,
      runs: runs.length,
      failedRuns: runs.filter((run) => run.error !== undefined).map((run) => run.error),
      medianWallMs: wall,
      messagesPerSecond: messages / (wall / 1000),
      batches: median(runs.map((run) => run.batches)),
      medianRequests: median(runs.map((run) => run.requests)),
      medianRetries: median(runs.map((run) => run.requests - run.batches)),
      retriesPerRun: runs.map((run) => run.requests - run.batches),
      wallMsPerRun: runs.map((run) => run.wallMs),
      inputHeapBytes: ready.inputHeapBytes,
      clientPeakHeapDeltaBytes: Math.max(...runs.map((run) => run.peakHeapDeltaBytes)),
      clientMaxRssBytes: done.maxRssBytes,
      emulatorMessagesHeld: Math.min(10_000, messages) + runs.reduce((n, run) => n + (run.messageCount ?? 0), 0),
      emulatorRetainedHeapBytes: stats.retainedHeapBytes,
      emulatorMaxRssBytes: stats.maxRssBytes,
      emulatorBatchesRecorded: stats.batchesRecorded,
      // Batches the emulator recorded beyond those the client saw accepted: a retry applied twice.
      duplicateBatches: stats.batchesRecorded - acceptedBatches,
    };
  } finally {
    for (const child of [sender, host]) if (child.connected) child.disconnect();
    await Promise.all([exited(sender), exited(host)]);
  }
}

/* ---------------------------------------------------------------- 2, 3. micro-benchmarks */

// Sections 2 and 3 run in fresh processes, several times: on this Node, zod's hot paths
// settle per process into a fast or a ~2.5-3.5x slower state (V8 JIT, not the code under
// test), so one process alone could report either. Each figure is the median over the
// processes, with the fastest and slowest process beside it.
const MICRO_PROCESSES = 3;

function summarize(perProcess, rateKey, perItemKey) {
  return perProcess[0].map((first, i) => {
    const rates = perProcess.map((cases) => cases[i][rateKey]);
    const perItem = perProcess.map((cases) => cases[i][perItemKey]);
    return {
      ...first,
      [rateKey]: median(rates),
      [perItemKey]: median(perItem),
      medianMs: median(perProcess.map((cases) => cases[i].medianMs)),
      slowestProcess: Math.min(...rates),
      fastestProcess: Math.max(...rates),
    };
  });
}

async function micro() {
  const runs = [];
  for (let i = 0; i < MICRO_PROCESSES; i++) {
    progress(`validation and receiver helpers, process ${i + 1} of ${MICRO_PROCESSES}`);
    const child = startChild("micro.js");
    const { kind, ...result } = await ask(child);
    await exited(child);
    runs.push(result);
  }
  return {
    validation: {
      processes: MICRO_PROCESSES,
      cases: summarize(
        runs.map((r) => r.validation.cases),
        "messagesPerSecond",
        "microsecondsPerMessage",
      ),
      copyHeapBytes: median(runs.map((r) => r.validation.copyHeapBytes)),
    },
    receiver: {
      processes: MICRO_PROCESSES,
      cases: summarize(
        runs.map((r) => r.receiver),
        "opsPerSecond",
        "microsecondsPerOp",
      ),
    },
    // Each process measures honest and forged interleaved; the ratio is taken per process.
    forgedVsHonest: runs[0].forgedVsHonest.map((first, i) => {
      const rows = runs.map((r) => r.forgedVsHonest[i]);
      const ratios = rows.map((r) => r.ratio);
      return {
        ...first,
        honestUs: median(rows.map((r) => r.honestUs)),
        forgedUs: median(rows.map((r) => r.forgedUs)),
        ratio: median(ratios),
        highestRatio: Math.max(...ratios),
      };
    }),
  };
}

/* ---------------------------------------------------------------- 4. provider shell */

async function providerShell() {
  progress("provider shell serialization");
  const child = startChild("provider-shell.js");
  const { kind, ...result } = await ask(child);
  await exited(child);
  return result;
}

/* ---------------------------------------------------------------- 7. client vs raw undici */

const FLOOR = { messages: 100_000, concurrency: 4, repeats: 21 };

async function floor() {
  progress(
    `client vs raw undici.request: ${count(FLOOR.messages)} messages, concurrency ${FLOOR.concurrency}, ${FLOOR.repeats} runs each, interleaved`,
  );
  const server = startChild("minimal-server.js");
  const client = startChild("floor-case.js");
  try {
    const { url } = await ask(server, { cmd: "start" });
    const { kind, ...result } = await ask(client, { url, ...FLOOR });
    await ask(server, { cmd: "stop" });
    return result;
  } finally {
    for (const child of [client, server]) if (child.connected) child.disconnect();
    await Promise.all([exited(client), exited(server)]);
  }
}

/* ---------------------------------------------------------------- 8. messaging send of a 1M-line file */

const SEND_FILE = { lines: 1_000_000, concurrency: 4 };

async function sendFileCase() {
  const host = startChild("emulator-host.js");
  try {
    const result = await sendFile({ ...SEND_FILE, host, ask, progress });
    await ask(host, { cmd: "stop" });
    return result;
  } finally {
    if (host.connected) host.disconnect();
    await exited(host);
  }
}

/* ---------------------------------------------------------------- report */

function printReport(report) {
  const f = report.machine;
  const out = [];
  out.push(`pulumi-messaging bench — node ${f.node} (V8 ${f.v8}), ${f.platform}`);
  out.push(`CPU: ${f.cpuModel}, ${f.cores} cores, ${count(f.totalMemoryMiB)} MiB RAM; total ${(report.totalMs / 1000).toFixed(1)} s`);
  out.push("");

  if (report.sending) {
    out.push("1. Chunked sending: MessagingClient.sendMessages → emulator, 1,000 messages per batch, median of runs");
    out.push("   (client, emulator and this script are three processes; fresh emulator per row; default retry policy)");
    const faultsCell = (c) => (c.faults ? `${c.faults.failureRate} seed ${c.faults.seed}` : "none");
    out.push(
      table(
        ["messages", "conc", "faults", "runs", "wall ms", "msg/s", "batches", "requests", "retries", "dupes"],
        report.sending.map((c) => [
          count(c.messages),
          c.concurrency,
          faultsCell(c),
          c.runs,
          c.medianWallMs.toFixed(0),
          count(c.messagesPerSecond),
          c.batches,
          c.medianRequests,
          c.medianRetries,
          c.duplicateBatches,
        ]),
      ),
    );
    out.push("");
    out.push("   memory of the same rows");
    out.push(
      table(
        ["messages", "conc", "faults", "client heap Δ MiB", "client max RSS MiB", "emu msgs held", "emu heap MiB", "emu max RSS MiB"],
        report.sending.map((c) => [
          count(c.messages),
          c.concurrency,
          faultsCell(c),
          mib(c.clientPeakHeapDeltaBytes),
          mib(c.clientMaxRssBytes),
          count(c.emulatorMessagesHeld),
          mib(c.emulatorRetainedHeapBytes),
          mib(c.emulatorMaxRssBytes),
        ]),
      ),
    );
    const sample = report.sending.find((c) => c.messages === 100_000);
    if (sample) out.push(`   input array of ${count(sample.messages)} messages itself: ${mib(sample.inputHeapBytes)} MiB of heap`);
    for (const c of report.sending.filter((c) => c.faults)) {
      out.push(
        `   faults, concurrency ${c.concurrency}: wall ms per run ${c.wallMsPerRun.map((ms) => ms.toFixed(0)).join(", ")}; retries per run ${c.retriesPerRun.join(", ")}`,
      );
    }
    for (const c of report.sending.filter((c) => c.failedRuns.length > 0)) {
      out.push(`   ! ${count(c.messages)} / concurrency ${c.concurrency}: ${c.failedRuns.length} run(s) failed: ${c.failedRuns[0]}`);
    }
    out.push("");
  }
  if (report.validation) {
    const range = (c) => `${count(c.slowestProcess)}–${count(c.fastestProcess)}`;
    out.push(
      `2. Validation (zod schemas from dist/schemas), 100,000 messages; median of 5 runs per process, median of ${report.validation.processes} processes`,
    );
    out.push(
      table(
        ["what", "ms", "msg/s", "µs/msg", "msg/s slowest–fastest process"],
        report.validation.cases.map((v) => [
          v.name,
          v.medianMs.toFixed(1),
          count(v.messagesPerSecond),
          v.microsecondsPerMessage.toFixed(2),
          range(v),
        ]),
      ),
    );
    out.push(`   validated copy returned by parseMessages for 100,000 messages: ${mib(report.validation.copyHeapBytes)} MiB of heap`);
    out.push("");

    out.push(`3. Receiver helpers; median of 5 runs per process, median of ${report.receiver.processes} processes`);
    out.push(
      table(
        ["what", "body bytes", "ops/s", "µs/op", "ops/s slowest–fastest process"],
        report.receiver.cases.map((r) => [r.name, r.bodyBytes, count(r.opsPerSecond), r.microsecondsPerOp.toFixed(2), range(r)]),
      ),
    );
    out.push("");
    out.push(
      `   A forged request (8 sha256 entries, 2 secrets) against an honest one, per request, measured interleaved in each process; median of ${report.receiver.processes} processes (budget: forged <= 2 x honest)`,
    );
    out.push(
      table(
        ["what", "honest µs", "forged µs", "forged / honest", "highest process", "budget"],
        report.forgedVsHonest.map((r) => [
          r.name,
          r.honestUs.toFixed(0),
          r.forgedUs.toFixed(0),
          r.ratio.toFixed(2),
          r.highestRatio.toFixed(2),
          r.budget === undefined ? "-" : r.ratio <= r.budget ? `<= ${r.budget} ok` : `<= ${r.budget} OVER`,
        ]),
      ),
    );
    out.push("");
  }
  if (report.provider) {
    const p = report.provider;
    out.push(`4. Provider shell: serialized __provider (@pulumi/pulumi ${p.sdkVersion} closure serializer)`);
    out.push(
      table(
        ["shell", "bytes", "lines", "runtime via require", "zod/undici captured", "first ms", "median ms"],
        p.shells.map((s) => [
          s.kind,
          s.bytes,
          s.lines,
          s.reachesRuntimeByRequire ? "yes" : "NO",
          s.capturesZodOrUndici ? "YES" : "no",
          s.firstSerializeMs.toFixed(1),
          s.medianSerializeMs.toFixed(1),
        ]),
      ),
    );
    out.push(
      `   stored by a real WebhookEndpoint (SDK mocks): ${p.storedByWebhookEndpointBytes} bytes; loading the closure serializer took ${p.closureModuleLoadMs.toFixed(0)} ms`,
    );
    out.push("");
  }
  if (report.emulatorLoad) {
    printEmulatorLoad(report.emulatorLoad, out);
    out.push("");
  }
  if (report.requireTime) {
    const r = report.requireTime;
    out.push(
      `6. require time in a fresh process (Node start-up excluded), median of ${r.runs} processes; budget for /client and /receiver: 1.5 x undici + zod`,
    );
    out.push(
      table(
        ["what", "median ms", "min ms", "max ms", "x undici+zod"],
        r.cases.map((c) => [c.name, c.medianMs.toFixed(1), c.minMs.toFixed(1), c.maxMs.toFixed(1), c.ratioToBaseline.toFixed(2)]),
      ),
    );
    out.push("");
  }
  if (report.floor) {
    const fl = report.floor;
    out.push(
      `7. MessagingClient.sendMessages vs raw undici.request (JSON.stringify per request), ${count(fl.messages)} messages, concurrency ${fl.concurrency},`,
    );
    out.push(
      `   against a server that only parses JSON; median of ${fl.repeats} interleaved runs each (budget: wall ratio <= 1.25, stretch 1.1)`,
    );
    out.push(
      table(
        ["side", "wall ms", "CPU ms"],
        [
          ["raw undici", fl.rawWallMs.toFixed(0), fl.rawCpuMs.toFixed(0)],
          ["client", fl.clientWallMs.toFixed(0), fl.clientCpuMs.toFixed(0)],
        ],
      ),
    );
    out.push(`   client/raw: wall ${fl.wallRatio.toFixed(2)}x, CPU ${fl.cpuRatio.toFixed(2)}x`);
    out.push("");
  }
  if (report.sendFile) {
    const sf = report.sendFile;
    out.push(
      `8. messaging send of a ${count(sf.lines)}-line NDJSON file (${mib(sf.bytes)} MiB) to the emulator, --concurrency ${sf.concurrency} (budget: peak RSS <= 128 MiB, bar 256)`,
    );
    out.push(
      table(
        ["wall s", "CLI peak RSS MiB", "floor peak RSS MiB", "emulator messages", "distinct", "emulator batches"],
        [
          [
            (sf.wallMs / 1000).toFixed(1),
            mib(sf.maxRssBytes),
            mib(sf.floorMaxRssBytes),
            count(sf.emulatorMessages),
            count(sf.emulatorDistinctRecipients),
            count(sf.emulatorBatches),
          ],
        ],
      ),
    );
    out.push(
      `   exactly once: ${sf.emulatorMessages === sf.lines && sf.emulatorDistinctRecipients === sf.lines ? "yes" : "NO"} (${sf.summary})`,
    );
  }
  if (report.longLine) {
    out.push("");
    printLongLine(report.longLine, out);
  }
  if (report.emulatorFlood) {
    out.push("");
    printEmulatorFlood(report.emulatorFlood, out);
  }
  if (report.unchangedUp) {
    out.push("");
    printUnchangedUp(report.unchangedUp, out);
  }
  console.log(out.join("\n"));
}

async function main() {
  const start = now();
  const report = { machine: machineFacts() };
  if (runs(2) || runs(3)) Object.assign(report, await micro());
  if (runs(1)) {
    report.sending = [];
    for (const c of SEND_CASES) report.sending.push(await sendCase(c));
  }
  if (runs(4)) report.provider = await providerShell();
  if (runs(5)) report.emulatorLoad = await emulatorLoad(progress);
  if (runs(6)) report.requireTime = requireTimes(progress);
  if (runs(7)) report.floor = await floor();
  if (runs(8)) report.sendFile = await sendFileCase();
  if (runs(9)) report.longLine = await longLine(progress);
  if (runs(10)) report.emulatorFlood = await emulatorFlood(progress);
  if (runs(11)) report.unchangedUp = await unchangedUp({ progress, startChild, exited });
  report.totalMs = msSince(start);
  if (asJson) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
