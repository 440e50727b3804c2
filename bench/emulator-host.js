"use strict";
// Child process of bench/run.js: hosts one emulator for one send case, so the emulator's
// memory and CPU are its own (the client runs in another child). Driven over IPC; every
// command gets one reply:
//   { cmd: "start" }                 → { kind: "started", url, apiKey }
//   { cmd: "faults", settings }      → { kind: "faults", settings }
//   { cmd: "requests" }              → { kind: "requests", count }
//   { cmd: "stats" }                 → { kind: "stats", retainedHeapBytes, batchesRecorded, maxRssBytes }
//   { cmd: "stop" }                  → { kind: "stopped" } and exits

const { startEmulator } = require("../dist/emulator");
const { collectGarbage } = require("./lib");

let emulator;
let heapBeforeStart;

process.on("message", (message) => {
  const handle = async () => {
    switch (message.cmd) {
      case "start":
        collectGarbage();
        heapBeforeStart = process.memoryUsage().heapUsed;
        emulator = await startEmulator({ port: 0 });
        return { kind: "started", url: emulator.url, apiKey: emulator.apiKey };
      case "faults":
        return { kind: "faults", settings: emulator.setFaults(message.settings) };
      case "requests":
        return { kind: "requests", count: emulator.requestCount() };
      case "stats": {
        // Heap first: batches() returns a deep copy of everything recorded.
        collectGarbage();
        const retainedHeapBytes = process.memoryUsage().heapUsed - heapBeforeStart;
        // ru_maxrss is in KiB: the peak resident set of this process so far.
        const maxRssBytes = process.resourceUsage().maxRSS * 1024;
        const batchesRecorded = emulator.batches().length;
        return { kind: "stats", retainedHeapBytes, batchesRecorded, maxRssBytes };
      }
      case "stop":
        await emulator.close();
        return { kind: "stopped" };
      default:
        throw new Error(`unknown command ${message.cmd}`);
    }
  };
  handle().then(
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
