"use strict";
// Child process of bench/run.js: one chunked-send case, so its peak RSS and heap are the
// client's alone (the emulator runs in the parent). Driven over IPC:
//   parent → { cmd: "init", url, apiKey, messages, concurrency }  child → { kind: "ready", … }
//   parent → { cmd: "run" }                                       child → { kind: "result", … }
//   parent → { cmd: "done" }                                      child → { kind: "done", maxRssBytes } and exits

const { MessagingClient } = require("../dist/client");
const { collectGarbage, makeMessages, msSince, now } = require("./lib");
const { peakRssBytes } = require("./peak-rss");

// How often memory is sampled during a send, in ms.
const SAMPLE_EVERY_MS = 5;

let client;
let input;
let concurrency;
let baselineHeap;

function reply(message) {
  process.send(message);
}

async function init({ url, apiKey, messages, concurrency: c }) {
  concurrency = c;
  client = new MessagingClient({ apiKey, baseUrl: url });
  collectGarbage();
  const beforeInput = process.memoryUsage().heapUsed;
  input = makeMessages(messages);
  collectGarbage();
  const afterInput = process.memoryUsage().heapUsed;
  // Warm-up: one send of up to 10,000 messages (JIT, connections, zod's compiled checks).
  await client.sendMessages(input.slice(0, 10_000), { stream: "transactional", concurrency });
  collectGarbage();
  baselineHeap = process.memoryUsage().heapUsed;
  reply({ kind: "ready", inputHeapBytes: afterInput - beforeInput });
}

async function run() {
  collectGarbage();
  const start = process.memoryUsage();
  let peakHeap = start.heapUsed;
  let peakRss = start.rss;
  const sample = () => {
    const m = process.memoryUsage();
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
    if (m.rss > peakRss) peakRss = m.rss;
  };
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  const t0 = now();
  let result;
  let error;
  try {
    result = await client.sendMessages(input, { stream: "transactional", concurrency });
  } catch (e) {
    error = e;
  }
  const wallMs = msSince(t0);
  clearInterval(sampler);
  sample();
  reply({
    kind: "result",
    wallMs,
    batches: result ? result.batches.length : (error?.sent?.length ?? 0),
    messageCount: result ? result.messageCount : undefined,
    error: error ? `${error.name}: ${error.message}` : undefined,
    // Growth of the heap during the send over the heap holding the input (after GC).
    peakHeapDeltaBytes: peakHeap - baselineHeap,
    peakRssBytes: peakRss,
  });
}

process.on("message", (message) => {
  const handle = async () => {
    switch (message.cmd) {
      case "init":
        return init(message);
      case "run":
        return run();
      case "done":
        await client.close();
        // The process's peak resident set (warm-up and GC included).
        reply({ kind: "done", maxRssBytes: peakRssBytes() });
        process.disconnect();
        return undefined;
      default:
        throw new Error(`unknown command ${message.cmd}`);
    }
  };
  handle().catch((error) => {
    reply({ kind: "error", error: String(error && error.stack ? error.stack : error) });
    process.exitCode = 1;
    process.disconnect();
  });
});
