/**
 * The replay guard under the emulator's real delivery retries: a retry that arrives while the
 * first attempt's `onEvent` is still running must not be answered as done (204), or the event
 * is lost when that first attempt fails. The Node and the Web handler alike.
 *
 * The first attempt's `onEvent` waits until the retry has been answered, then throws: the
 * emulator gives up on the first attempt after `deliveryTimeoutMs` and retries meanwhile.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator, type Emulator } from "../../emulator";
import { MemoryReplayGuard, createWebhookHandler, createWebhookRequestHandler, type ParsedEvent } from "../../receiver";
import { call, endpointForm } from "../support/emulator";

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
type OnEvent = (event: ParsedEvent) => Promise<void>;

/** The Web handler behind node:http, as a Request/Response runtime would call it. */
function webListener(secret: string, onEvent: OnEvent): Listener {
  const handle = createWebhookRequestHandler({ secret, replayGuard: new MemoryReplayGuard(), onEvent, onError: () => undefined });
  return async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await handle(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }));
    response.headers.forEach((value, name) => res.setHeader(name, value));
    res.statusCode = response.status;
    res.end(Buffer.from(await response.arrayBuffer()));
  };
}

function nodeListener(secret: string, onEvent: OnEvent): Listener {
  return createWebhookHandler({ secret, replayGuard: new MemoryReplayGuard(), onEvent, onError: () => undefined });
}

describe.each([
  ["createWebhookHandler (Node)", nodeListener],
  ["createWebhookRequestHandler (Web)", webListener],
])("%s with a MemoryReplayGuard, under the emulator's retries", (_name, makeListener) => {
  let emulator: Emulator;
  let server: http.Server;
  beforeEach(async () => {
    emulator = await startEmulator({ deliveryTimeoutMs: 300, deliveryRetrySchedule: [0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05] });
  });
  afterEach(async () => {
    await emulator?.close();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("answers a retry of an event still in progress 503 with Retry-After, and processes the event once it failed", async () => {
    // What the receiver answered, request by request.
    const answers: Array<{ status: number; retryAfter: unknown }> = [];
    let retryAnswered!: () => void;
    const secondAnswered = new Promise<void>((resolve) => (retryAnswered = resolve));
    const processed: string[] = [];
    let calls = 0;
    const onEvent: OnEvent = async (event) => {
      calls += 1;
      if (calls === 1) {
        await secondAnswered;
        throw new Error("the database went away");
      }
      processed.push(event.id);
    };

    const current: { listener?: Listener } = {};
    server = http.createServer((req, res) => {
      res.on("finish", () => {
        answers.push({ status: res.statusCode, retryAfter: res.getHeader("retry-after") });
        if (answers.length === 1) retryAnswered();
      });
      void current.listener!(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

    const created = await call(emulator, "/v1/webhooks/endpoints", {
      form: endpointForm({ url: receiverUrl, "events[]": ["payment.succeeded"] }),
    });
    expect(created.status).toBe(200);
    current.listener = makeListener(created.json.secret, onEvent);

    const emitted = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
    expect(emitted.status).toBe(200);
    await emulator.deliveriesSettled();

    const eventId = emulator.events()[0].event.id;
    // The retry that met the first attempt in progress was told to come back, not "done".
    expect(answers[0]).toMatchObject({ status: 503 });
    expect(Number(answers[0].retryAfter)).toBeGreaterThan(0);
    // The event was processed, once, and the emulator's last attempt is the one that did it.
    expect(processed).toEqual([eventId]);
    const attempts = emulator.deliveries();
    expect(attempts.at(-1)).toMatchObject({ eventId, status: 204, ok: true });
    expect(attempts.filter((attempt) => attempt.ok)).toHaveLength(1);
  });
});
