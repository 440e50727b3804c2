"use strict";
// The floor of section 8 (bench/run.js): the same file sent as simply as Node allows, in a
// process of its own, so its peak RSS is what any streaming sender pays. It reads the file in
// 64 KiB chunks, splits lines, JSON.parses each, and POSTs each 1,000 as one JSON body with
// undici.request (one Agent) at `concurrency` calls at once; no checks, no journal, no keys
// kept. It sets the V8 flags `messaging send` sets for itself (cli/main.ts, cli/commands/send/command.ts),
// so the gap to the CLI is the CLI's own. Prints `bench-max-rss-bytes N` (peak-rss.js) to stderr.
//   node send-floor.js FILE URL CONCURRENCY

const { setFlagsFromString } = require("node:v8");
setFlagsFromString("--liftoff-only");
setFlagsFromString("--heap-growing-percent=50");

const fs = require("node:fs");
const { Agent, request } = require("undici");
const { peakRssBytes } = require("./peak-rss");

const BATCH = 1000;
const [file, url, concurrencyArg] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);

async function* batches() {
  let messages = [];
  let rest = Buffer.alloc(0);
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 })) {
    const bytes = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      if (end > start) messages.push(JSON.parse(bytes.toString("utf8", start, end)));
      start = end + 1;
      if (messages.length === BATCH) {
        yield messages;
        messages = [];
      }
    }
    rest = Buffer.from(bytes.subarray(start));
  }
  if (rest.length > 0) messages.push(JSON.parse(rest.toString("utf8")));
  if (messages.length > 0) yield messages;
}

async function main() {
  const agent = new Agent();
  const inFlight = new Set();
  let key = 0;
  let sent = 0;
  for await (const messages of batches()) {
    const call = (async () => {
      const response = await request(`${url}/v1/message_batches`, {
        method: "POST",
        dispatcher: agent,
        headers: { "content-type": "application/json", "idempotency-key": `floor-${key++}` },
        body: JSON.stringify({ stream: "transactional", messages }),
      });
      await response.body.json();
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      sent += messages.length;
    })();
    const settled = call.finally(() => inFlight.delete(settled));
    inFlight.add(settled);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  await agent.close();
  process.stdout.write(`sent ${sent}\n`);
}

process.on("exit", () => {
  process.stderr.write(`\nbench-max-rss-bytes ${peakRssBytes()}\n`);
});
main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
