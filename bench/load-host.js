"use strict";
// Child process of bench/emulator-load.js: hosts the server under load (the emulator, or a
// minimal server that only parses JSON), so its memory, CPU and event loop are its own.
// Driven over IPC; every command gets one reply:
//   { cmd: "start", server: "emulator" | "json", options } → { kind: "started", url, apiKey }
//   { cmd: "stats" }  → { kind: "stats", maxRssBytes, rssBytes, loopDelayMaxMs, loopDelayP99Ms, totals }
//   { cmd: "cpu" }    → { kind: "cpu", micros } (CPU time used so far)
//   { cmd: "stop" }   → { kind: "stopped" } and exits

const http = require("node:http");
const { monitorEventLoopDelay } = require("node:perf_hooks");
const { startEmulator } = require("../dist/emulator");
const { peakRssBytes } = require("./peak-rss");
const { serveCommands } = require("./lib");

let close;
let totals = () => null;
// How long the event loop was held up, sampled every 10 ms from the start.
const loop = monitorEventLoopDelay({ resolution: 10 });

// The yardstick: read the body, JSON.parse it, answer a small JSON object. Nothing else.
async function startJsonServer() {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const body = JSON.stringify({ id: "msba_x", messageCount: value.messages.length });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    });
  return { url: `http://127.0.0.1:${server.address().port}`, apiKey: "unused" };
}

serveCommands(async (message) => {
  switch (message.cmd) {
    case "start": {
      loop.enable();
      if (message.server === "json") return { kind: "started", ...(await startJsonServer()) };
      const emulator = await startEmulator({ port: 0, ...message.options });
      close = () => emulator.close();
      totals = () => emulator.batchTotals();
      return { kind: "started", url: emulator.url, apiKey: emulator.apiKey };
    }
    case "stats":
      return {
        kind: "stats",
        // The peak resident set of this process so far.
        maxRssBytes: peakRssBytes(),
        rssBytes: process.memoryUsage().rss,
        loopDelayMaxMs: loop.max / 1e6,
        loopDelayP99Ms: loop.percentile(99) / 1e6,
        totals: totals(),
      };
    case "cpu": {
      // CPU time this process has used so far (user + system), in microseconds.
      const { user, system } = process.cpuUsage();
      return { kind: "cpu", micros: user + system };
    }
    case "stop":
      await close();
      return { kind: "stopped" };
    default:
      throw new Error(`unknown command ${message.cmd}`);
  }
});
