import { PartialSendError, ValidationError, isInvalidRequestError, isPartialSendError, isValidationError } from "../../errors";
import type { Message } from "../../schemas";
import type { SendProgress } from "../../client";
import { sendInChunks, type SendBatch } from "../../client/send-messages";
import type { MessageBatchResult } from "../../schemas";
import { mockService, rejection } from "../support/mock-service";

const BATCHES = "/v1/message_batches";

function messages(count: number, from = 0): Message[] {
  return Array.from({ length: count }, (_, i) => ({ tos: ["+254700000000"], body: `message ${from + i}` }));
}

async function* asAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

let service: ReturnType<typeof mockService>;
afterEach(() => service?.close());

interface Received {
  key: string;
  bodies: string[];
}

/** Answers every batch with 200 and an id, recording the key and the message bodies. */
function acceptBatches(fail?: (key: string) => number | undefined): Received[] {
  const received: Received[] = [];
  service.pool
    .intercept({ path: BATCHES, method: "POST" })
    .reply<object>((request) => {
      const key = (request.headers as Record<string, string>)["idempotency-key"];
      const status = fail?.(key);
      if (status !== undefined) return { statusCode: status, data: { title: "nope" } };
      const body = JSON.parse(String(request.body)) as { messages: Message[] };
      received.push({ key, bodies: body.messages.map((m) => m.body ?? "") });
      return { statusCode: 200, data: { id: `msba_${key}` } };
    })
    .persist();
  return received;
}

describe("sendMessages", () => {
  beforeEach(() => {
    service = mockService();
  });

  it("sends 2,500 messages as 1000 + 1000 + 500 with keys prefix-0..2, in order", async () => {
    const received = acceptBatches();
    const progress: SendProgress[] = [];
    const result = await service.client.sendMessages(messages(2500), {
      stream: "transactional",
      idempotencyKeyPrefix: "run-1",
      onProgress: (p) => progress.push({ ...p }),
    });
    expect(received.map((r) => [r.key, r.bodies.length])).toEqual([
      ["run-1-0", 1000],
      ["run-1-1", 1000],
      ["run-1-2", 500],
    ]);
    expect(received.flatMap((r) => r.bodies)).toEqual(messages(2500).map((m) => m.body));
    expect(result).toEqual({
      batches: [
        { index: 0, id: "msba_run-1-0", count: 1000, idempotencyKey: "run-1-0" },
        { index: 1, id: "msba_run-1-1", count: 1000, idempotencyKey: "run-1-1" },
        { index: 2, id: "msba_run-1-2", count: 500, idempotencyKey: "run-1-2" },
      ],
      messageCount: 2500,
      skippedMessages: 0,
      idempotencyKeyPrefix: "run-1",
    });
    expect(progress).toEqual([
      { sentMessages: 1000, totalMessages: 2500, sentBatches: 1, batch: result.batches[0] },
      { sentMessages: 2000, totalMessages: 2500, sentBatches: 2, batch: result.batches[1] },
      { sentMessages: 2500, totalMessages: 2500, sentBatches: 3, batch: result.batches[2] },
    ]);
  });

  it("generates a prefix when none is given and returns it", async () => {
    const received = acceptBatches();
    const result = await service.client.sendMessages(messages(3), { stream: "transactional", batchSize: 2 });
    expect(result.idempotencyKeyPrefix).toMatch(/^[0-9a-f-]{36}$/);
    expect(received.map((r) => r.key)).toEqual([`${result.idempotencyKeyPrefix}-0`, `${result.idempotencyKeyPrefix}-1`]);
  });

  it("sends nothing for no messages", async () => {
    acceptBatches();
    await expect(service.client.sendMessages([], { stream: "transactional" })).resolves.toMatchObject({ batches: [], messageCount: 0 });
    expect(service.calls()).toHaveLength(0);
  });

  it("validates a whole array before sending anything, naming the index in the whole input", async () => {
    acceptBatches();
    const input = messages(2000);
    input[1523] = { tos: ["0700000000"], body: "bad" };
    const error = await rejection(service.client.sendMessages(input, { stream: "transactional" }));
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toMatch(/messages\[1523\]\.tos\[0\]: expected an E\.164 phone number/);
    expect(service.calls()).toHaveLength(0);
  });

  it("lists at most 100 invalid messages and counts the rest", async () => {
    const input = Array.from({ length: 150 }, () => ({ tos: [] as string[], body: "x" }));
    const error = (await rejection(service.client.sendMessages(input, { stream: "transactional" }))) as ValidationError;
    expect(Object.keys(error.fieldErrors)).toHaveLength(101);
    expect(error.fieldErrors.messages).toEqual(["50 more invalid message(s) not listed (150 in all)"]);
  });

  it("rejects bad options by name, before sending anything", async () => {
    acceptBatches();
    const error = await rejection(
      service.client.sendMessages(messages(1), { stream: "", batchSize: 1001, concurrency: 0, idempotencyKeyPrefix: "a b" }),
    );
    expect(isValidationError(error)).toBe(true);
    expect(error.message).toMatch(/stream: expected a non-empty stream name/);
    expect(error.message).toMatch(/batchSize: expected at most 1000/);
    expect(error.message).toMatch(/concurrency: expected at least 1/);
    expect(error.message).toMatch(/idempotencyKeyPrefix: expected visible ASCII/);
    expect(service.calls()).toHaveLength(0);
  });

  it("rejects input that is not iterable", async () => {
    const error = await rejection(service.client.sendMessages({} as never, { stream: "transactional" }));
    expect(error.message).toMatch(/messages: expected an array, an iterable or an async iterable/);
  });

  it("reads an async iterable chunk by chunk and sends all of it", async () => {
    const received = acceptBatches();
    const result = await service.client.sendMessages(asAsync(messages(5)), {
      stream: "transactional",
      batchSize: 2,
      idempotencyKeyPrefix: "it",
    });
    expect(received.map((r) => r.bodies)).toEqual([["message 0", "message 1"], ["message 2", "message 3"], ["message 4"]]);
    expect(result.messageCount).toBe(5);
  });

  it("also takes a sync iterable that is not an array (validated per chunk)", async () => {
    const received = acceptBatches();
    const result = await service.client.sendMessages(new Set(messages(3)), { stream: "transactional", batchSize: 2 });
    expect(received).toHaveLength(2);
    expect(result.messageCount).toBe(3);
  });

  it("validates an async iterable per chunk: a bad message in chunk 1 stops after chunk 0 with PartialSendError", async () => {
    const received = acceptBatches();
    const input = messages(3000);
    input[1523] = { tos: ["0700000000"], body: "bad" };
    const error = (await rejection(
      service.client.sendMessages(asAsync(input), { stream: "transactional", idempotencyKeyPrefix: "p" }),
    )) as PartialSendError;
    expect(isPartialSendError(error)).toBe(true);
    expect(error.failedIndex).toBe(1);
    expect(error.sent).toEqual([{ index: 0, id: "msba_p-0", count: 1000, idempotencyKey: "p-0" }]);
    expect(isValidationError(error.cause)).toBe(true);
    expect((error.cause as Error).message).toMatch(/messages\[1523\]\.tos\[0\]/);
    expect(received.map((r) => r.key)).toEqual(["p-0"]);
  });

  it("throws the ValidationError itself when the first chunk of an iterable is bad (nothing was sent)", async () => {
    acceptBatches();
    const error = await rejection(service.client.sendMessages(asAsync([{ tos: [], body: "x" }] as Message[]), { stream: "transactional" }));
    expect(isValidationError(error)).toBe(true);
    expect(service.calls()).toHaveLength(0);
  });

  it("stops at a chunk that fails and starts no further chunk", async () => {
    const received = acceptBatches((key) => (key === "p-1" ? 400 : undefined));
    const error = (await rejection(
      service.client.sendMessages(messages(5), { stream: "transactional", batchSize: 2, idempotencyKeyPrefix: "p" }),
    )) as PartialSendError;
    expect(isPartialSendError(error)).toBe(true);
    expect(error.failedIndex).toBe(1);
    expect(error.sent.map((b) => b.index)).toEqual([0]);
    expect(isInvalidRequestError(error.cause)).toBe(true);
    expect(error.message).toMatch(/sending stopped at chunk 1: 2 message\(s\) in 1 chunk\(s\) were accepted/);
    expect(error.idempotencyKeyPrefix).toBe("p");
    expect(error.message).toContain('resume with idempotencyKeyPrefix "p"');
    expect(received.map((r) => r.key)).toEqual(["p-0"]);
    expect(service.calls()).toHaveLength(2);
  });

  it("carries a generated prefix, and resuming with it sends nothing twice", async () => {
    let failing = true;
    const received = acceptBatches((key) => (failing && key.endsWith("-1") ? 503 : undefined));
    const error = (await rejection(
      service.client.sendMessages(messages(5), { stream: "transactional", batchSize: 2 }),
    )) as PartialSendError;
    expect(isPartialSendError(error)).toBe(true);
    expect(error.idempotencyKeyPrefix).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(error.sent.map((b) => b.idempotencyKey)).toEqual([`${error.idempotencyKeyPrefix}-0`]);
    expect(error.message).toContain(`resume with idempotencyKeyPrefix "${error.idempotencyKeyPrefix}"`);

    failing = false;
    const result = await service.client.sendMessages(messages(5), {
      stream: "transactional",
      batchSize: 2,
      idempotencyKeyPrefix: error.idempotencyKeyPrefix,
    });
    expect(result.idempotencyKeyPrefix).toBe(error.idempotencyKeyPrefix);
    // The same keys as the first run: a real service replays chunk 0 instead of sending it again.
    expect(received.map((r) => r.key)).toEqual([0, 0, 1, 2].map((i) => `${error.idempotencyKeyPrefix}-${i}`));
  });

  it("reports a failure of the very first chunk as PartialSendError with nothing sent", async () => {
    acceptBatches(() => 400);
    const error = (await rejection(
      service.client.sendMessages(messages(3), { stream: "transactional", batchSize: 2 }),
    )) as PartialSendError;
    expect(isPartialSendError(error)).toBe(true);
    expect(error.sent).toEqual([]);
    expect(error.failedIndex).toBe(0);
  });

  it("keeps results in input order with several chunks in flight, never more than `concurrency`", async () => {
    // A fake sender whose calls finish in reverse order of starting, within each window.
    const pending: Array<{ index: number; resolve: (result: MessageBatchResult) => void }> = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const sendBatch: SendBatch = (request, key) =>
      new Promise((resolve) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        pending.push({ index: Number(key.split("-").pop()), resolve });
        setImmediate(() => {
          // Finish the newest pending call first.
          const next = pending.pop();
          inFlight--;
          next?.resolve({ id: `msba_${next.index}` });
        });
      });
    const progress: number[] = [];
    const result = await sendInChunks(
      messages(10),
      { stream: "transactional", batchSize: 1, concurrency: 3, idempotencyKeyPrefix: "c", onProgress: (p) => progress.push(p.sentBatches) },
      sendBatch,
    );
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(result.batches.map((b) => b.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(result.batches.map((b) => b.idempotencyKey)).toEqual(Array.from({ length: 10 }, (_, i) => `c-${i}`));
    expect(result.batches.every((b) => b.id === `msba_${b.index}`)).toBe(true);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("stops when the signal aborts and reports what was sent", async () => {
    const controller = new AbortController();
    acceptBatches();
    const error = (await rejection(
      service.client.sendMessages(messages(5), {
        stream: "transactional",
        batchSize: 1,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.sentBatches === 2) controller.abort(new Error("enough"));
        },
      }),
    )) as PartialSendError;
    expect(isPartialSendError(error)).toBe(true);
    expect(error.sent.map((b) => b.index)).toEqual([0, 1]);
    expect(error.failedIndex).toBe(2);
    expect((error.cause as Error).message).toBe("enough");
    expect(service.calls()).toHaveLength(2);
  });

  it("skipChunks: chunks already accepted are not sent again, and are counted apart", async () => {
    const received = acceptBatches();
    const result = await service.client.sendMessages(messages(5), {
      stream: "transactional",
      batchSize: 1,
      idempotencyKeyPrefix: "skip",
      skipChunks: new Set([0, 2, 3]),
    });
    expect(received.map((r) => r.key)).toEqual(["skip-1", "skip-4"]);
    expect(result.batches.map((b) => b.index)).toEqual([1, 4]);
    expect(result.messageCount).toBe(2);
    expect(result.skippedMessages).toBe(3);
  });

  it("stopSignal: no further chunk starts, the chunks in flight finish and are reported as sent", async () => {
    const stop = new AbortController();
    const started: number[] = [];
    const finishers: Array<() => void> = [];
    const sendBatch: SendBatch = (_request, key) =>
      new Promise((resolve) => {
        const index = Number(key.split("-").pop());
        started.push(index);
        finishers.push(() => resolve({ id: `msba_${index}` }));
        // Ctrl-C arrives while chunks 0 and 1 are in flight.
        if (started.length === 2) {
          stop.abort(new Error("SIGINT"));
          setImmediate(() => finishers.forEach((finish) => finish()));
        }
      });
    const error = (await rejection(
      sendInChunks(
        messages(6),
        { stream: "transactional", batchSize: 1, concurrency: 2, idempotencyKeyPrefix: "s", stopSignal: stop.signal },
        sendBatch,
      ),
    )) as PartialSendError;
    expect(started).toEqual([0, 1]);
    expect(error.sent.map((b) => b.id)).toEqual(["msba_0", "msba_1"]);
    expect(error.failedIndex).toBe(2);
    expect((error.cause as Error).message).toBe("SIGINT");
  });

  it("onRetry: told of each retry of a chunk, with the reason and the wait", async () => {
    let attempts = 0;
    service.pool
      .intercept({ path: BATCHES, method: "POST" })
      .reply(() => (++attempts === 1 ? { statusCode: 503, data: "{}" } : { statusCode: 200, data: '{"id":"msba_1"}' }))
      .persist();
    const retries: unknown[] = [];
    await service.client.sendMessages(messages(1), { stream: "transactional", onRetry: (retry) => retries.push(retry) });
    expect(retries).toEqual([{ chunkIndex: 0, attempt: 1, delayMs: expect.any(Number), reason: "HTTP 503" }]);
  });

  it("stops when onProgress throws", async () => {
    acceptBatches();
    const error = (await rejection(
      service.client.sendMessages(messages(3), {
        stream: "transactional",
        batchSize: 1,
        onProgress: () => {
          throw new Error("progress bar broke");
        },
      }),
    )) as PartialSendError;
    expect(isPartialSendError(error)).toBe(true);
    expect(error.sent).toHaveLength(1);
    expect(error.failedIndex).toBe(1);
    expect((error.cause as Error).message).toBe("progress bar broke");
  });

  it("stops when the caller's iterable throws", async () => {
    acceptBatches();
    async function* broken() {
      yield* messages(2);
      throw new Error("file truncated");
    }
    const error = (await rejection(service.client.sendMessages(broken(), { stream: "transactional", batchSize: 1 }))) as PartialSendError;
    expect(isPartialSendError(error)).toBe(true);
    expect(error.sent.map((b) => b.index)).toEqual([0, 1]);
    expect(error.failedIndex).toBe(2);
    expect((error.cause as Error).message).toBe("file truncated");
  });
});
