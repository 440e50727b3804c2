import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  MemoryReplayGuard,
  createWebhookHandler,
  signPayload,
  type ParsedEvent,
  type WebhookEventContext,
  type WebhookHandlerOptions,
} from "../../receiver";
import { closeServersAfterAll } from "../support/loopback-server";

const SECRET = "whsec_handler_test";
const BODY = JSON.stringify({
  id: "evt_h1",
  type: "payment.succeeded",
  created: "2024-06-01T12:00:00Z",
  data: { object: { id: "pay_1" }, previous: null },
});

interface Received {
  event: ParsedEvent;
  context: WebhookEventContext;
}

/** One server per option set, all on 127.0.0.1 port 0; closed in afterAll. */
const servers: Server[] = [];
closeServersAfterAll(servers);
async function serve(options: Partial<WebhookHandlerOptions> = {}) {
  const received: Received[] = [];
  const errors: Array<{ error: unknown; status: number }> = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    onEvent: (event, context) => {
      received.push({ event, context });
    },
    onError: (error, status) => errors.push({ error, status }),
    ...options,
  });
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, received, errors };
}

function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
}

async function problem(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return (await response.json()) as Record<string, unknown>;
}

describe("createWebhookHandler", () => {
  let main: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    main = await serve();
  });
  beforeEach(() => {
    main.received.length = 0;
    main.errors.length = 0;
  });

  it("answers 204 to a signed event and hands it to onEvent with the raw body", async () => {
    const response = await post(main.url, BODY, { "X-Service-Signature": signPayload(BODY, SECRET) });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(main.received).toHaveLength(1);
    const [{ event, context }] = main.received;
    expect(event.type).toBe("payment.succeeded");
    expect(event.id).toBe("evt_h1");
    expect(context.rawBody.toString()).toBe(BODY);
    expect(context.payload.format).toBe("basic");
    expect(context.signature.secretIndex).toBe(0);
    expect(context.req.url).toBe("/webhooks");
    expect(main.errors).toEqual([]);
  });

  it("answers 401 with the reason when the signature header is missing", async () => {
    const response = await post(main.url, BODY);
    expect(response.status).toBe(401);
    const body = await problem(response);
    expect(body).toMatchObject({ status: 401, title: "missing_header" });
    expect(main.received).toEqual([]);
    expect(main.errors.map((e) => e.status)).toEqual([401]);
  });

  it("answers 401 to a tampered body, revealing neither the secret nor the expected signature", async () => {
    const header = signPayload(BODY, SECRET);
    const tampered = BODY.replace("pay_1", "pay_2");
    const response = await post(main.url, tampered, { "x-service-signature": header });
    expect(response.status).toBe(401);
    const text = JSON.stringify(await problem(response));
    expect(text).toContain("no_matching_signature");
    expect(text).not.toContain(SECRET);
    const expectedForTampered = signPayload(tampered, SECRET, Number(/t=(\d+)/.exec(header)?.[1])).split("sha256=")[1];
    expect(text).not.toContain(expectedForTampered);
    expect(main.received).toEqual([]);
  });

  it("answers 401 to a stale signature", async () => {
    const stale = signPayload(BODY, SECRET, Math.floor(Date.now() / 1000) - 301);
    const response = await post(main.url, BODY, { "x-service-signature": stale });
    expect(response.status).toBe(401);
    expect(await problem(response)).toMatchObject({ title: "timestamp_out_of_tolerance" });
  });

  it("answers 400 naming the field when a correctly signed body is not an event", async () => {
    const notEvent = JSON.stringify({ id: "evt_x", created: "2024-06-01T12:00:00Z" });
    const response = await post(main.url, notEvent, { "x-service-signature": signPayload(notEvent, SECRET) });
    expect(response.status).toBe(400);
    const body = await problem(response);
    expect(body).toMatchObject({ status: 400, title: "invalid_event" });
    expect(body.errors).toHaveProperty("data");
    expect(main.received).toEqual([]);
  });

  it("answers 405 to anything but POST", async () => {
    const response = await fetch(main.url);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(main.received).toEqual([]);
  });

  it("passes a CloudEvents envelope's event and attributes", async () => {
    const envelope = JSON.stringify({
      specversion: "1.0",
      id: "ce_9",
      source: "emulator",
      type: "identity.verification.created",
      data: { id: "evt_c", created: "2024-06-01T12:00:00Z", data: { object: {} } },
    });
    const response = await post(main.url, envelope, { "x-service-signature": signPayload(envelope, SECRET) });
    expect(response.status).toBe(204);
    const [{ event, context }] = main.received;
    expect(event.type).toBe("identity.verification.created");
    expect(context.payload.format === "cloudEvents" && context.payload.cloudEvent.id).toBe("ce_9");
  });
});

describe("createWebhookHandler options", () => {
  it("reads the signature from a custom header name, in any case", async () => {
    const server = await serve({ headerName: "X-Custom-Signature", secret: ["whsec_new", SECRET] });
    const header = signPayload(BODY, SECRET);
    expect((await post(server.url, BODY, { "x-custom-signature": header })).status).toBe(204);
    expect(server.received[0]?.context.signature.secretIndex).toBe(1);
    // The default header is not consulted any more.
    expect((await post(server.url, BODY, { "x-service-signature": header })).status).toBe(401);
  });

  it("answers 413 to a body over the cap, by Content-Length, without calling onEvent", async () => {
    const server = await serve({ maxBodyBytes: 64 });
    const big = JSON.stringify({ padding: "x".repeat(200) });
    const response = await post(server.url, big, { "x-service-signature": signPayload(big, SECRET) });
    expect(response.status).toBe(413);
    expect(await problem(response)).toMatchObject({ title: "payload_too_large" });
    expect(server.received).toEqual([]);
    expect(server.errors.map((e) => e.status)).toEqual([413]);
  });

  it("answers 413 to a chunked body that grows over the cap", async () => {
    const server = await serve({ maxBodyBytes: 64 });
    const status = await new Promise<number>((resolve, reject) => {
      // A well-formed header: a malformed or missing one is refused (401) before the body is read.
      const header = `t=${Math.floor(Date.now() / 1000)},sha256=${"0".repeat(64)}`;
      const req = request(server.url, { method: "POST", headers: { "x-service-signature": header } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write("x".repeat(40)); // no Content-Length: sent chunked
      req.end("y".repeat(40));
    });
    expect(status).toBe(413);
    expect(server.received).toEqual([]);
  });

  it("answers 500 when onEvent throws, and reports the error", async () => {
    const failure = new Error("database down");
    const server = await serve({
      onEvent: async () => {
        throw failure;
      },
    });
    const response = await post(server.url, BODY, { "x-service-signature": signPayload(BODY, SECRET) });
    expect(response.status).toBe(500);
    const body = await problem(response);
    expect(body).toMatchObject({ title: "handler_failed" });
    expect(JSON.stringify(body)).not.toContain("database down");
    expect(server.errors).toEqual([{ error: failure, status: 500 }]);
  });

  it.each([
    ["an empty secret", { secret: "" }, /secret is empty/],
    ["an empty secret list", { secret: [] }, /no webhook signing secret/],
    ["a negative tolerance", { toleranceSeconds: -5 }, /toleranceSeconds/],
    ["a zero body cap", { maxBodyBytes: 0 }, /maxBodyBytes/],
    ["an empty header name", { headerName: " " }, /headerName/],
  ])("refuses to be created with %s", (_label, overrides, message) => {
    expect(() => createWebhookHandler({ secret: SECRET, onEvent: () => undefined, ...overrides })).toThrow(
      expect.objectContaining({ code: "configuration_error", message: expect.stringMatching(message) }),
    );
  });
});

describe("createWebhookHandler: replay guard, pre-read bodies, problem vocabulary", () => {
  const signed = () => ({ "x-service-signature": signPayload(BODY, SECRET) });

  it("processes each event id once with a replay guard, and lets a redelivery through after onEvent failed", async () => {
    let failNext = true;
    const calls: string[] = [];
    const { url } = await serve({
      replayGuard: new MemoryReplayGuard(),
      onEvent: (event) => {
        calls.push(event.id);
        if (failNext) {
          failNext = false;
          throw new Error("database down");
        }
      },
    });
    expect((await post(url, BODY, signed())).status).toBe(500); // failed: forgotten
    expect((await post(url, BODY, signed())).status).toBe(204); // redelivery processed
    expect((await post(url, BODY, signed())).status).toBe(204); // duplicate: answered, not processed
    expect(calls).toEqual(["evt_h1", "evt_h1"]);
  });

  it("takes the Buffer express.raw() leaves in req.body, and refuses a parsed body with a 500 saying what to do", async () => {
    const received: string[] = [];
    const errors: number[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: (event) => void received.push(event.id),
      onError: (_e, status) => void errors.push(status),
    });
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const raw = Buffer.concat(chunks);
        // What express.raw() and express.json() leave behind.
        (req as typeof req & { body?: unknown }).body = req.url === "/raw" ? raw : JSON.parse(raw.toString("utf8"));
        void handler(req, res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    expect((await post(`${base}/raw`, BODY, signed())).status).toBe(204);
    expect(received).toEqual(["evt_h1"]);
    const parsed = await post(`${base}/json`, BODY, signed());
    expect(parsed.status).toBe(500);
    expect(String((await problem(parsed)).detail)).toContain("express.raw");
    expect(errors).toEqual([500]);
  });

  it("answers problems with the same type vocabulary as the emulator", async () => {
    const { url } = await serve();
    const body = await problem(await post(url, BODY, { "x-service-signature": signPayload(BODY, "whsec_other") }));
    expect(body).toMatchObject({ type: "urn:messaging:problem:no_matching_signature", title: "no_matching_signature", status: 401 });
  });
});
