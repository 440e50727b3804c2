"use strict";
// Child process of bench/run.js: sections 2 (validation) and 3 (receiver helpers) in a
// fresh process. Sends one { kind: "result", validation, receiver } message, then exits.

const { buildEvent, eventData, eventPayload } = require("../dist/emulator/events");
const { parseMessages } = require("../dist/client/validate");
const { Message, MessageBatchRequest, MAX_MESSAGES_PER_BATCH } = require("../dist/schemas");
const { constructEvent, parseEvent, signPayload, verifySignature, verifyWebhookRequest } = require("../dist/receiver");
const { collectGarbage, makeMessages, median, timeRepeated } = require("./lib");

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

// What a forged request costs against an honest one: a 1 MiB body, 2 configured secrets, a
// header of 8 sha256 entries (the most accepted; one HMAC per secret whatever their number)
// and one of 200 (refused as malformed before any HMAC).
function forgedVsHonest() {
  const OPS = 40;
  const body = Buffer.from(
    JSON.stringify({
      id: "evt_1",
      type: "payment.succeeded",
      created: "2024-06-01T00:00:00Z",
      data: { object: { note: "x".repeat(1024 * 1024 - 200) } },
    }),
  );
  const secrets = ["whsec_bench_current_000000000000000000", "whsec_bench_previous_00000000000000000"];
  const t = Math.floor(Date.now() / 1000);
  const honest = signPayload(body, secrets[0], t);
  const forged = (count) => [`t=${t}`, ...Array.from({ length: count }, (_, i) => `sha256=${i.toString(16).padStart(64, "0")}`)].join(",");
  const request = (header) =>
    new Request("http://receiver.bench/webhooks", { method: "POST", body, headers: { "x-service-signature": header } });
  const refused = (run) => async () => {
    try {
      await run();
    } catch {
      return;
    }
    throw new Error("a forged request verified");
  };
  return [
    ["verifySignature 1 MiB, 2 secrets: honest", body, () => verifySignature(body, honest, secrets, { nowSeconds: t }), OPS],
    [
      "verifySignature 1 MiB, 2 secrets: forged, 8 entries",
      body,
      refused(() => verifySignature(body, forged(8), secrets, { nowSeconds: t })),
      OPS,
    ],
    [
      "verifySignature 1 MiB, 2 secrets: forged, 200 entries",
      body,
      refused(() => verifySignature(body, forged(200), secrets, { nowSeconds: t })),
      OPS,
    ],
    ["verifyWebhookRequest 1 MiB, 2 secrets: honest", body, () => verifyWebhookRequest(request(honest), secrets, { nowSeconds: t }), OPS],
    [
      "verifyWebhookRequest 1 MiB, 2 secrets: forged, 8 entries",
      body,
      refused(() => verifyWebhookRequest(request(forged(8)), secrets, { nowSeconds: t })),
      OPS,
    ],
    [
      "verifyWebhookRequest 1 MiB, 2 secrets: forged, 200 entries",
      body,
      refused(() => verifyWebhookRequest(request(forged(200)), secrets, { nowSeconds: t })),
      OPS,
    ],
  ];
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
  for (const [name, body, op, ops = OPS] of [...cases, ...forgedVsHonest()]) {
    collectGarbage();
    const ms = median(
      await timeRepeated(async () => {
        for (let i = 0; i < ops; i++) await op();
      }, REPEATS),
    );
    results.push({
      name,
      bodyBytes: Buffer.byteLength(body),
      ops,
      medianMs: ms,
      opsPerSecond: ops / (ms / 1000),
      microsecondsPerOp: (ms * 1000) / ops,
    });
  }
  return results;
}

async function main() {
  const validationResult = await validation();
  const receiverResult = await receiver();
  return { validation: validationResult, receiver: receiverResult };
}

main().then(
  (result) => process.send({ kind: "result", ...result }, () => process.disconnect()),
  (error) => {
    process.send({ kind: "error", error: String(error && error.stack ? error.stack : error) }, () => process.disconnect());
    process.exitCode = 1;
  },
);
