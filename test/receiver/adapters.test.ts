/**
 * The Node adapter (`createWebhookHandler` on a real node:http server) and the Web adapter
 * (`createWebhookRequestHandler`, called with a standard Request) share one core: every row
 * must get the same status, problem title and onEvent calls from both.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MemoryReplayGuard, createWebhookHandler, createWebhookRequestHandler, signPayload, type ParsedEvent } from "../../receiver";
import { closeServersAfterAll } from "../support/loopback-server";

const SECRET = "whsec_adapter_test";
const MAX = 2048;

function eventBody(id: string): string {
  return JSON.stringify({
    id,
    type: "payment.succeeded",
    created: "2024-06-01T12:00:00Z",
    data: { object: { id: "pay_1" }, previous: null },
  });
}

/** One delivery: method, body and headers (signature computed when `sign` is given). */
interface Delivery {
  readonly method?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

interface Row {
  readonly name: string;
  /** Deliveries sent in order to a fresh handler; the last one's answer is compared. */
  readonly deliveries: (id: string) => Delivery[];
  readonly status: number;
  readonly title?: string;
  /** How many times onEvent ran over all deliveries. */
  readonly processed: number;
  /** onEvent throws the first time it is called. */
  readonly failFirst?: boolean;
}

const now = () => Math.floor(Date.now() / 1000);
const signed = (body: string, secret = SECRET, t = now()) => ({ body, headers: { "x-service-signature": signPayload(body, secret, t) } });

const ROWS: Row[] = [
  { name: "a signed event", deliveries: (id) => [signed(eventBody(id))], status: 204, processed: 1 },
  {
    name: "the same event twice (a redelivery)",
    deliveries: (id) => [signed(eventBody(id)), signed(eventBody(id))],
    status: 204,
    processed: 1,
  },
  {
    name: "a redelivery after onEvent failed",
    deliveries: (id) => [signed(eventBody(id)), signed(eventBody(id))],
    status: 204,
    processed: 2,
    failFirst: true,
  },
  {
    name: "onEvent failing",
    deliveries: (id) => [signed(eventBody(id))],
    status: 500,
    title: "handler_failed",
    processed: 1,
    failFirst: true,
  },
  { name: "no signature header", deliveries: (id) => [{ body: eventBody(id) }], status: 401, title: "missing_header", processed: 0 },
  {
    name: "a malformed header",
    deliveries: (id) => [{ body: eventBody(id), headers: { "x-service-signature": "sha256=zz" } }],
    status: 401,
    title: "malformed_header",
    processed: 0,
  },
  {
    name: "another secret's signature",
    deliveries: (id) => [signed(eventBody(id), "whsec_other")],
    status: 401,
    title: "no_matching_signature",
    processed: 0,
  },
  {
    name: "a tampered body",
    deliveries: (id) => [{ ...signed(eventBody(id)), body: eventBody(id).replace("pay_1", "pay_2") }],
    status: 401,
    title: "no_matching_signature",
    processed: 0,
  },
  {
    name: "a stale signature",
    deliveries: (id) => [signed(eventBody(id), SECRET, now() - 3600)],
    status: 401,
    title: "timestamp_out_of_tolerance",
    processed: 0,
  },
  {
    name: "a signed body that is not an event",
    deliveries: () => [signed(JSON.stringify({ hello: "world" }))],
    status: 400,
    title: "invalid_event",
    processed: 0,
  },
  { name: "a signed body that is not JSON", deliveries: () => [signed("not json")], status: 400, title: "invalid_event", processed: 0 },
  {
    name: "a body over maxBodyBytes",
    deliveries: (id) => [signed(eventBody(id).replace("pay_1", "x".repeat(MAX)))],
    status: 413,
    title: "payload_too_large",
    processed: 0,
  },
  {
    name: "a body over maxBodyBytes without a signature header (the header is checked first)",
    deliveries: (id) => [{ body: eventBody(id).replace("pay_1", "x".repeat(MAX)) }],
    status: 401,
    title: "missing_header",
    processed: 0,
  },
  { name: "a GET", deliveries: () => [{ method: "GET" }], status: 405, title: "method_not_allowed", processed: 0 },
];

interface Answer {
  readonly status: number;
  readonly title?: string;
}

interface Adapter {
  /** Sends the deliveries to a fresh handler; returns the last answer and how often onEvent ran. */
  run(row: Row, id: string): Promise<{ answer: Answer; processed: number }>;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  if (response.status === 204) {
    expect(text).toBe("");
    return { status: 204 };
  }
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = JSON.parse(text) as { title: string; status: number; detail: string };
  expect(problem.status).toBe(response.status);
  expect(problem.detail).not.toContain(SECRET);
  return { status: response.status, title: problem.title };
}

function handlerOptions(row: Row) {
  let calls = 0;
  return {
    calls: () => calls,
    options: {
      secret: SECRET,
      maxBodyBytes: MAX,
      replayGuard: new MemoryReplayGuard(),
      onError: () => undefined,
      onEvent: (_event: ParsedEvent) => {
        calls += 1;
        if (row.failFirst && calls === 1) throw new Error("processing failed");
      },
    },
  };
}

const servers: Server[] = [];
closeServersAfterAll(servers);

const ADAPTERS: Record<string, Adapter> = {
  "Node (createWebhookHandler)": {
    async run(row, id) {
      const { calls, options } = handlerOptions(row);
      const server = createServer(createWebhookHandler(options));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      let answer: Answer = { status: 0 };
      for (const delivery of row.deliveries(id)) {
        const method = delivery.method ?? "POST";
        answer = await answerOf(
          await fetch(url, { method, body: method === "GET" ? undefined : delivery.body, headers: delivery.headers }),
        );
      }
      return { answer, processed: calls() };
    },
  },
  "Web (createWebhookRequestHandler)": {
    async run(row, id) {
      const { calls, options } = handlerOptions(row);
      const handle = createWebhookRequestHandler(options);
      let answer: Answer = { status: 0 };
      for (const delivery of row.deliveries(id)) {
        const method = delivery.method ?? "POST";
        const request = new Request("http://receiver.test/webhooks", {
          method,
          body: method === "GET" ? undefined : delivery.body,
          headers: delivery.headers,
        });
        answer = await answerOf(await handle(request));
      }
      return { answer, processed: calls() };
    },
  },
};

describe.each(Object.entries(ADAPTERS))("%s", (_name, adapter) => {
  it.each(ROWS.map((row, index) => [row.name, row, index] as const))("%s", async (_rowName, row, index) => {
    const { answer, processed } = await adapter.run(row, `evt_row${index}`);
    expect(answer).toEqual(row.title === undefined ? { status: row.status } : { status: row.status, title: row.title });
    expect(processed).toBe(row.processed);
  });
});

describe("both adapters", () => {
  it("give identical answers on every row", async () => {
    const [node, web] = Object.values(ADAPTERS);
    for (const [index, row] of ROWS.entries()) {
      const a = await node.run(row, `evt_same${index}`);
      const b = await web.run(row, `evt_same${index}`);
      expect({ row: row.name, ...b }).toEqual({ row: row.name, ...a });
    }
  });
});
