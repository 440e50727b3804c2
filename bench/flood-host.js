"use strict";
// Child process of bench/emulator-flood.js: hosts one emulator with default limits (its own
// process, so its peak RSS is its own; node flags such as --max-old-space-size come from the
// parent). Driven over IPC:
//   { cmd: "start" } → { kind: "started", url, apiKey }
//   { cmd: "stats" } → { kind: "stats", maxRssBytes, heapLimitBytes, storage, batchTotals, endpoints, events }
//   { cmd: "stop" }  → { kind: "stopped" } and exits

const v8 = require("node:v8");
const { startEmulator } = require("../dist/emulator");
const { serveCommands } = require("./lib");
const { peakRssBytes } = require("./peak-rss");

let emulator;

serveCommands(async (message) => {
  switch (message.cmd) {
    case "start":
      emulator = await startEmulator({ port: 0, deliveryRetrySchedule: [] });
      return { kind: "started", url: emulator.url, apiKey: emulator.apiKey };
    case "stats":
      return {
        kind: "stats",
        maxRssBytes: peakRssBytes(),
        heapLimitBytes: v8.getHeapStatistics().heap_size_limit,
        storage: emulator.storageTotals(),
        batchTotals: emulator.batchTotals(),
        endpoints: emulator.endpoints().length,
        events: emulator.events().length,
      };
    case "stop":
      await emulator.close();
      return { kind: "stopped" };
    default:
      throw new Error(`unknown command ${message.cmd}`);
  }
});
