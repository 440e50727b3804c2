/** examples/web-receiver: a (Request) => Response handler on createWebhookRequestHandler, called with standard Requests. */
import * as path from "node:path";
import { signPayload } from "../../receiver";

const { createHandler } = require(path.resolve(__dirname, "../../examples/web-receiver/handler.js"));

const SECRET = "whsec_web_example";
const body = (id: string) => JSON.stringify({ id, type: "payment.succeeded", created: "2026-11-22T00:00:00Z", data: { object: {} } });
const request = (raw: string, header = signPayload(raw, SECRET), method = "POST") =>
  new Request("https://receiver.example/webhooks/payments", {
    method,
    ...(method === "POST" ? { body: raw } : {}),
    headers: { "x-service-signature": header },
  });

test("answers 204 to a signed event and hands it over once; a duplicate is answered 204 and not handed over", async () => {
  const seen: string[] = [];
  const handle = createHandler({ secret: SECRET, onEvent: (event: { id: string }) => void seen.push(event.id) });
  expect((await handle(request(body("evt_w1")))).status).toBe(204);
  expect((await handle(request(body("evt_w1")))).status).toBe(204);
  expect(seen).toEqual(["evt_w1"]);
});

test("answers 401 for a changed body, with the reason", async () => {
  const handle = createHandler({ secret: SECRET, onEvent: () => undefined });
  const response: Response = await handle(request(body("evt_w2").replace("{}", '{"x":1}'), signPayload(body("evt_w2"), SECRET)));
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toMatchObject({ title: "no_matching_signature", type: "urn:messaging:problem:no_matching_signature" });
});

test("answers 400 for a signed body that is not an event, 405 for GET, 500 when onEvent fails (then processes the redelivery)", async () => {
  let fail = true;
  const seen: string[] = [];
  const handle = createHandler({
    secret: SECRET,
    onEvent: (event: { id: string }) => {
      if (fail) {
        fail = false;
        throw new Error("down");
      }
      seen.push(event.id);
    },
  });
  expect((await handle(request('{"not":"an event"}'))).status).toBe(400);
  expect((await handle(request("", undefined, "GET"))).status).toBe(405);
  expect((await handle(request(body("evt_w3")))).status).toBe(500);
  expect((await handle(request(body("evt_w3")))).status).toBe(204);
  expect(seen).toEqual(["evt_w3"]);
});
