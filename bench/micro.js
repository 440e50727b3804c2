"use strict";
// Child process of bench/run.js: sections 2 (validation) and 3 (receiver helpers) in a
// fresh process. Sends one { kind: "result", validation, receiver } message, then exits.

const { buildEvent, eventData, eventPayload } = require("../dist/emulator/delivery");
const { parseMessages } = require("../dist/client/validate");
const { Message, MessageBatchRequest, MAX_MESSAGES_PER_BATCH } = require("../dist/schemas");
const {
  MAX_SIGNATURE_ENTRIES,
  MemoryReplayGuard,
  constructEvent,
  createWebhookRequestHandler,
  parseEvent,
  signPayload,
  verifySignature,
  verifyWebhookRequest,
} = require("../dist/receiver");
const { collectGarbage, makeMessages, median, msSince, now, timeRepeated } = require("./lib");

async function validation() {
  const N = 100_000;
  const REPEATS = 5;
  const messages = makeMessages(N);
  const batches = [];
  for (let i = 0; i < N; i += MAX_MESSAGES_PER_BATCH) {
    batches.push({ stream: "transactional", messages: messages.slice(i, i + MAX_MESSAGES_PER_BATCH) });
  }
  const bodies = batches.map((batch) => JSON.stringify(batch));

  // safeParse is what the product calls (client, CLI, emulator); parse is there for comparison.
  const cases = [
    [
      "Message.safeParse, one call per message (CLI, client)",
      () => {
        for (const m of messages) Message.safeParse(m);
      },
    ],
    ["client parseMessages (sendMessages on an array: precompiled check, zod for the rest)", () => parseMessages(messages, 0)],
    [
      "MessageBatchRequest.safeParse, 100 x 1,000 (emulator, per request)",
      () => {
        for (const b of batches) MessageBatchRequest.safeParse(b);
      },
    ],
    [
      "Message.parse, one call per message (not used by the product)",
      () => {
        for (const m of messages) Message.parse(m);
      },
    ],
    [
      "reference: JSON.stringify, 100 x 1,000",
      () => {
        for (const b of batches) JSON.stringify(b);
      },
    ],
    [
      "reference: JSON.parse, 100 x 1,000",
      () => {
        for (const s of bodies) JSON.parse(s);
      },
    ],
  ];
  // A full GC before the first schema call: when zod's code gets optimized while the input
  // is still in V8's young generation, it stays ~2.5x slower for the life of the process
  // (seen on Node 20.20: 0.27 vs 0.75 µs per Message.safeParse), which would make these
  // figures depend on luck. The send-case child does the same before it sends. Even so a process
  // now and then lands in the slow state; bench/run.js runs this file several times.
  collectGarbage();
  const results = [];
  for (const [name, fn] of cases) {
    collectGarbage();
    const ms = median(await timeRepeated(fn, REPEATS));
    results.push({ name, messages: N, medianMs: ms, messagesPerSecond: N / (ms / 1000), microsecondsPerMessage: (ms * 1000) / N });
  }

  // Heap held by what parseMessages returns beyond the input (0 when it returns the input itself).
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const copy = parseMessages(messages, 0);
  collectGarbage();
  const copyHeapBytes = process.memoryUsage().heapUsed - before;
  if (copy !== messages && copy.length < 0) console.log(copy); // keeps `copy` alive during the measurement
  return { cases: results, copyHeapBytes };
}

/** A `payment.succeeded` event padded so its basic payload is about 1 KiB. */
function payloads() {
  const object = { id: "pay_1Q2w3E4r5T6y", amount: 1999, currency: "KES", status: "succeeded", phone: "+254712345678", note: "" };
  const event = buildEvent("payment.succeeded", eventData(object), new Date("2024-06-01T12:00:00Z"));
  const size = Buffer.byteLength(eventPayload(event, "basic").body);
  object.note = "x".repeat(Math.max(0, 1024 - size));
  const padded = buildEvent("payment.succeeded", eventData(object), new Date("2024-06-01T12:00:00Z"));
  return { basic: eventPayload(padded, "basic").body, cloudEvents: eventPayload(padded, "cloudEvents").body };
}

// What a forged request costs a receiver against an honest one, measured in one process,
// interleaved: 2 configured secrets, the honest request matching the first, a 1 MiB body (and a
// 1 KiB one, where fixed costs weigh most). A request costs what the receiver does for it: the
// honest one is read, verified (1 HMAC), parsed and checked against the replay guard; the
// forged one, with the most sha256 entries a header may hold (MAX_SIGNATURE_ENTRIES), is read
// and verified against every secret (2 HMACs, one per secret whatever the number of entries),
// then refused. The `Request` is built inside the call (as a runtime builds it from the
// socket), so its copy of the body is counted. The body is one long JSON string, the cheapest
// shape to parse: the honest side is as cheap as it gets. Budget: forged ≤ 2 × honest.
// `verifySignature` alone (HMAC only, no parse) is a reference: trying every secret makes it
// about 2× by construction.
const FORGED_BUDGET = 2;

/** Wall time of one call of `fn` (may be async), in ms. */
async function timed(fn) {
  const start = now();
  await fn();
  return msSince(start);
}

async function forgedVsHonest() {
  return [
    ...(await forgedVsHonestAt({ size: "1 MiB", bodyBytes: 1024 * 1024, requests: 40, references: true })),
    ...(await forgedVsHonestAt({ size: "1 KiB", bodyBytes: 1024, requests: 2000, references: false })),
  ];
}

async function forgedVsHonestAt({ size, bodyBytes, requests: POOL, references }) {
  const REPEATS = 7;
  const secrets = ["whsec_bench_current_000000000000000000", "whsec_bench_previous_00000000000000000"];
  const t = Math.floor(Date.now() / 1000);
  // Distinct event ids, so that the replay guard lets every honest request through.
  const bodies = Array.from({ length: POOL }, (_, i) =>
    Buffer.from(
      JSON.stringify({
        id: `evt_bench_${i}`,
        type: "payment.succeeded",
        created: "2024-06-01T00:00:00Z",
        data: { object: { note: "x".repeat(bodyBytes - 200) } },
      }),
    ),
  );
  const honest = bodies.map((body) => signPayload(body, secrets[0], t));
  const forged = (count) =>
    [`t=${t}`, ...Array.from({ length: count }, (_, i) => `sha256=${(i + 1).toString(16).padStart(64, "0")}`)].join(",");
  const forged8 = forged(MAX_SIGNATURE_ENTRIES);
  const forged200 = forged(200);
  const request = (body, header) =>
    new Request("http://receiver.bench/webhooks", { method: "POST", body, headers: { "x-service-signature": header } });
  const refused = async (run) => {
    try {
      await run();
    } catch {
      return;
    }
    throw new Error("a forged request verified");
  };
  const expectStatus = (response, status) => {
    if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}`);
  };
  // A batch through the Web handler, expecting `status` for each request. Each batch gets a
  // fresh guard (and handler), so honest ids are new to it.
  const throughHandler = (headerOf, status) => async () => {
    const handle = createWebhookRequestHandler({ secret: secrets, replayGuard: new MemoryReplayGuard(), onEvent: () => undefined });
    for (let i = 0; i < POOL; i++) expectStatus(await handle(request(bodies[i], headerOf(i))), status);
  };
  const honestThroughHandler = throughHandler((i) => honest[i], 204);
  const endToEnd = [
    {
      name: "Web handler (createWebhookRequestHandler, replay guard): 204 vs 401",
      honest: honestThroughHandler,
      forged: throughHandler(() => forged8, 401),
      budget: FORGED_BUDGET,
    },
    {
      name: "verifyWebhookRequest (Web Crypto: verify, parse, replay guard)",
      honest: async () => {
        const replayGuard = new MemoryReplayGuard();
        for (let i = 0; i < POOL; i++) await verifyWebhookRequest(request(bodies[i], honest[i]), secrets, { nowSeconds: t, replayGuard });
      },
      forged: async () => {
        const replayGuard = new MemoryReplayGuard();
        for (let i = 0; i < POOL; i++)
          await refused(() => verifyWebhookRequest(request(bodies[i], forged8), secrets, { nowSeconds: t, replayGuard }));
      },
      budget: FORGED_BUDGET,
    },
    {
      name: "constructEvent (node:crypto: verify, parse; body already read)",
      honest: () => {
        for (let i = 0; i < POOL; i++) constructEvent(bodies[i], honest[i], secrets, { nowSeconds: t });
      },
      forged: async () => {
        for (let i = 0; i < POOL; i++) await refused(() => constructEvent(bodies[i], forged8, secrets, { nowSeconds: t }));
      },
      // At 1 KiB, with the body already in hand, fixed costs decide (parsing 8 header entries,
      // 16 comparisons, the error object: about 2.4× a 50 µs honest request); the budget is
      // about what grows with the body.
      budget: bodyBytes >= 64 * 1024 ? FORGED_BUDGET : undefined,
    },
  ];
  const referenceRows = [
    {
      name: "reference: verifySignature alone (HMAC only; every secret tried)",
      honest: () => {
        for (let i = 0; i < POOL; i++) verifySignature(bodies[i], honest[i], secrets, { nowSeconds: t });
      },
      forged: async () => {
        for (let i = 0; i < POOL; i++) await refused(() => verifySignature(bodies[i], forged8, secrets, { nowSeconds: t }));
      },
    },
    {
      name: "reference: Web handler, forged with 200 entries (malformed: refused unread)",
      honest: honestThroughHandler,
      forged: throughHandler(() => forged200, 401),
    },
  ];
  const results = [];
  for (const { name, honest: runHonest, forged: runForged, budget } of [...endToEnd, ...(references ? referenceRows : [])]) {
    collectGarbage();
    await runHonest(); // warm-up
    await runForged();
    const honestMs = [];
    const forgedMs = [];
    for (let r = 0; r < REPEATS; r++) {
      // Interleaved, each after a collection, so that neither side pays the other's garbage.
      collectGarbage();
      honestMs.push(await timed(runHonest));
      collectGarbage();
      forgedMs.push(await timed(runForged));
    }
    const honestUs = (median(honestMs) * 1000) / POOL;
    const forgedUs = (median(forgedMs) * 1000) / POOL;
    results.push({
      name: `${size}: ${name}`,
      bodyBytes: bodies[0].length,
      requests: POOL,
      repeats: REPEATS,
      honestUs,
      forgedUs,
      ratio: forgedUs / honestUs,
      budget,
    });
  }
  return results;
}

async function receiver() {
  const OPS = 20_000;
  const REPEATS = 5;
  const { basic, cloudEvents } = payloads();
  const secret = "whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH";
  const t = Math.floor(Date.now() / 1000);
  const header = signPayload(basic, secret, t);
  const rotation = ["whsec_new_0000000000000000000000000000", secret];
  const cases = [
    ["signPayload", basic, () => signPayload(basic, secret, t)],
    ["verifySignature", basic, () => verifySignature(basic, header, secret, { nowSeconds: t })],
    ["verifySignature, 2 secrets, 2nd matches", basic, () => verifySignature(basic, header, rotation, { nowSeconds: t })],
    ["parseEvent, basic", basic, () => parseEvent(basic)],
    ["parseEvent, CloudEvents", cloudEvents, () => parseEvent(cloudEvents)],
    ["constructEvent (verify + parse), basic", basic, () => constructEvent(basic, header, secret, { nowSeconds: t })],
  ];
  const results = [];
  for (const [name, body, op] of cases) {
    collectGarbage();
    const ms = median(
      await timeRepeated(async () => {
        for (let i = 0; i < OPS; i++) await op();
      }, REPEATS),
    );
    results.push({
      name,
      bodyBytes: Buffer.byteLength(body),
      ops: OPS,
      medianMs: ms,
      opsPerSecond: OPS / (ms / 1000),
      microsecondsPerOp: (ms * 1000) / OPS,
    });
  }
  return results;
}

async function main() {
  const validationResult = await validation();
  const receiverResult = await receiver();
  const forgedResult = await forgedVsHonest();
  return { validation: validationResult, receiver: receiverResult, forgedVsHonest: forgedResult };
}

main().then(
  (result) => process.send({ kind: "result", ...result }, () => process.disconnect()),
  (error) => {
    process.send({ kind: "error", error: String(error && error.stack ? error.stack : error) }, () => process.disconnect());
    process.exitCode = 1;
  },
);
