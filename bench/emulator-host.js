"use strict";
// Child process of bench/run.js: hosts one emulator for one send case, so the emulator's
// memory and CPU are its own (the client runs in another child). Driven over IPC; every
// command gets one reply:
//   { cmd: "start", options? }       → { kind: "started", url, apiKey } (options: startEmulator's, e.g. larger stores)
//   { cmd: "faults", settings }      → { kind: "faults", settings }
//   { cmd: "requests" }              → { kind: "requests", count }
//   { cmd: "stats", count? }         → { kind: "stats", retainedHeapBytes, batchesRecorded, maxRssBytes; with count: messagesRecorded, distinctRecipients }
//   { cmd: "stop" }                  → { kind: "stopped" } and exits

const { startEmulator } = require("../dist/emulator");
const { collectGarbage, serveCommands } = require("./lib");
const { peakRssBytes } = require("./peak-rss");

let emulator;
let heapBeforeStart;

serveCommands(async (message) => {
  switch (message.cmd) {
    case "start":
      collectGarbage();
      heapBeforeStart = process.memoryUsage().heapUsed;
      emulator = await startEmulator({ ...message.options, port: 0 });
      return { kind: "started", url: emulator.url, apiKey: emulator.apiKey };
    case "faults":
      return { kind: "faults", settings: emulator.setFaults(message.settings) };
    case "requests":
      return { kind: "requests", count: emulator.requestCount() };
    case "stats": {
      // Heap first, before anything else allocates.
      collectGarbage();
      const retainedHeapBytes = process.memoryUsage().heapUsed - heapBeforeStart;
      // The peak resident set of this process so far.
      const maxRssBytes = peakRssBytes();
      const batchesRecorded = emulator.batchTotals().batches;
      if (!message.count) return { kind: "stats", retainedHeapBytes, batchesRecorded, maxRssBytes };
      // With `count`: every stored message and its distinct recipients (exactly-once checks).
      const recipients = new Set();
      let messagesRecorded = 0;
      for (const batch of emulator.batches()) {
        messagesRecorded += batch.messages.length;
        for (const recorded of batch.messages) recipients.add(recorded.tos.join(","));
      }
      return { kind: "stats", retainedHeapBytes, batchesRecorded, messagesRecorded, distinctRecipients: recipients.size, maxRssBytes };
    }
    case "stop":
      await emulator.close();
      return { kind: "stopped" };
    default:
      throw new Error(`unknown command ${message.cmd}`);
  }
});
