/**
 * Every state-changing `/_emulator/` route refuses the requests another site can make a
 * browser send without a CORS preflight ("simple" requests: a form's
 * application/x-www-form-urlencoded, multipart/form-data or text/plain body, or no body and
 * no Content-Type), even with the key a browser has cached for the inspector: 415, nothing changed.
 */
import { startEmulator, type Emulator } from "../../emulator";
import { call, endpointForm, startReceiver } from "../support/emulator";

let emulator: Emulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let deliveryId: string;

beforeAll(async () => {
  emulator = await startEmulator({ deliveryRetrySchedule: [] });
  receiver = await startReceiver(500);
  await call(emulator, "/v1/webhooks/endpoints", {
    form: endpointForm({ url: `${receiver.url}/hooks`, "events[]": ["payment.succeeded"] }),
  });
  const emitted = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
  deliveryId = emitted.json[0].id;
});

afterAll(async () => {
  await emulator?.close();
  await receiver?.close();
});

const SIMPLE_BODIES: Array<[string, Record<string, string>, string | undefined]> = [
  ["a form", { "content-type": "application/x-www-form-urlencoded" }, "type=payment.succeeded&failureRate=1"],
  [
    "multipart",
    { "content-type": "multipart/form-data; boundary=x" },
    '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\npayment.succeeded\r\n--x--\r\n',
  ],
  ["text/plain holding JSON", { "content-type": "text/plain" }, '{"type":"payment.succeeded","failureRate":1}'],
  ["no body and no Content-Type", {}, undefined],
];

describe.each(SIMPLE_BODIES)("a cross-site simple request (%s)", (_name, headers, body) => {
  it.each([["/_emulator/events"], ["/_emulator/faults"], ["/_emulator/deliveries/{id}/retry"]])(
    "to POST %s is refused with 415",
    async (route) => {
      const before = {
        deliveries: emulator.deliveries().length,
        events: (await call(emulator, "/_emulator/events")).json.length,
        received: receiver.received.length,
      };
      const path = route.replace("{id}", deliveryId);
      const result = await call(emulator, path, { method: "POST", headers, body });
      expect(result.status).toBe(415);
      expect(result.json.title).toBe("unsupported_media_type");
      expect((await call(emulator, "/_emulator/faults")).json.failureRate).toBe(0);
      expect(emulator.deliveries()).toHaveLength(before.deliveries);
      expect((await call(emulator, "/_emulator/events")).json).toHaveLength(before.events);
      expect(receiver.received).toHaveLength(before.received);
    },
  );
});

it("the same redelivery with Content-Type: application/json is made", async () => {
  const result = await call(emulator, `/_emulator/deliveries/${deliveryId}/retry`, { json: {} });
  expect(result.status).toBe(200);
  expect(result.json).toMatchObject({ id: deliveryId, attempt: 2, trigger: "manual" });
});
