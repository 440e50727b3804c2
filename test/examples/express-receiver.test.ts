/** examples/express-receiver: express.raw() on the webhook route, JSON elsewhere; a real server on 127.0.0.1. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { signPayload } from "../../receiver";

// The example as users run it: plain JavaScript requiring the built package.
const { createApp } = require(path.resolve(__dirname, "../../examples/express-receiver/app.js"));

const SECRET = "whsec_express_example";
const handled: string[] = [];
let failNext = false;
let server: Server;
let base: string;

beforeAll(async () => {
  const app = createApp({
    secret: SECRET,
    onPayment: (event: { id: string }) => {
      if (failNext) {
        failNext = false;
        throw new Error("database down");
      }
      handled.push(event.id);
    },
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const body = (id: string) =>
  JSON.stringify({ id, type: "payment.succeeded", created: "2026-11-22T00:00:00Z", data: { object: { amount: 1 } } });
const post = (raw: string, secret = SECRET, contentType = "application/json") =>
  fetch(`${base}/webhooks/payments`, {
    method: "POST",
    body: raw,
    headers: { "content-type": contentType, "x-service-signature": signPayload(raw, secret) },
  });

test("verifies the raw bytes, whatever the content type says", async () => {
  // Whitespace a JSON re-serialization would lose: only the raw bytes verify.
  const spaced = body("evt_e1").replace(/,/g, ",  ");
  expect((await post(spaced)).status).toBe(204);
  expect((await post(body("evt_e2"), SECRET, "text/plain")).status).toBe(204);
  expect(handled).toEqual(["evt_e1", "evt_e2"]);
});

test("refuses another secret with 401 and a changed body", async () => {
  const response = await post(body("evt_e3"), "whsec_other");
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ title: "no_matching_signature" });
  const raw = body("evt_e4");
  const tampered = await fetch(`${base}/webhooks/payments`, {
    method: "POST",
    body: raw.replace('"amount":1', '"amount":9'),
    headers: { "content-type": "application/json", "x-service-signature": signPayload(raw, SECRET) },
  });
  expect(tampered.status).toBe(401);
  expect(handled).not.toContain("evt_e4");
});

test("processes each event once; a failure lets the redelivery through", async () => {
  failNext = true;
  expect((await post(body("evt_e5"))).status).toBe(500);
  expect((await post(body("evt_e5"))).status).toBe(204);
  expect((await post(body("evt_e5"))).status).toBe(204);
  expect(handled.filter((id) => id === "evt_e5")).toHaveLength(1);
});

test("the rest of the app still parses JSON", async () => {
  const response = await fetch(`${base}/api/echo`, { method: "POST", body: '{"a":1}', headers: { "content-type": "application/json" } });
  expect(await response.json()).toEqual({ a: 1 });
});
