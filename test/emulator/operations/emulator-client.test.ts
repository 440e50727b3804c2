/** The typed client of the emulator's own routes: every operation of EMULATOR_OPERATIONS against a real emulator. */
import { EMULATOR_OPERATIONS, EmulatorClient, startEmulator, type Emulator } from "../../../emulator";
import { isApiError, isConnectionError, isResponseSchemaError, isValidationError, type ConnectionError } from "../../../errors";
import { call, endpointForm, message, startReceiver } from "../../support/emulator";
import { freeLoopbackPort } from "../../support/loopback-server";

let emulator: Emulator;
let client: EmulatorClient;
const closers: Array<() => Promise<unknown>> = [];
beforeEach(async () => {
  emulator = await startEmulator({ deliveryRetrySchedule: [30] });
  client = new EmulatorClient({ baseUrl: `${emulator.url}/`, apiKey: emulator.apiKey });
  closers.push(
    () => emulator.close(),
    () => client.close(),
  );
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function endpointFor(url: string): Promise<{ id: string }> {
  const created = await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm({ url }) });
  expect(created.status).toBe(200);
  return created.json;
}

it("lists endpoints and batches as the emulator recorded them, with the batch totals", async () => {
  expect(await client.listEndpoints()).toEqual([]);
  await endpointFor("https://example.com/a");
  expect(await client.listEndpoints()).toEqual(emulator.endpoints());

  for (const stream of ["one", "two", "three"]) {
    expect((await call(emulator, "/v1/message_batches", { json: { stream, messages: [message(0), message(1)] } })).status).toBe(200);
  }
  const all = await client.listBatches();
  expect(all.batches).toEqual(emulator.batches());
  expect(all.totals).toEqual({ batches: 3, messages: 6, storedBytes: emulator.storageTotals().storedBytes });
  const page = await client.listBatches({ after: all.batches[0].id, limit: 1 });
  expect(page.batches.map((batch) => batch.stream)).toEqual(["two"]);
});

it("emits an event (its first attempts, id and retry schedule), lists events and deliveries, retries a delivery", async () => {
  const receiver = await startReceiver((index) => (index === 0 ? 503 : 200));
  closers.push(() => receiver.close());
  const endpoint = await endpointFor(`${receiver.url}/hook`);

  const emitted = await client.emitEvent({ type: "payment.succeeded", data: { id: "pay_1" } });
  expect(emitted.retrySchedule).toEqual([30]);
  expect(emitted.eventId).toBe(JSON.parse(receiver.received[0].body).id);
  expect(emitted.attempts).toEqual([
    expect.objectContaining({ endpointId: endpoint.id, eventId: emitted.eventId, attempt: 1, status: 503, outcome: "retry_scheduled" }),
  ]);
  expect(await client.listEvents()).toEqual(emulator.events());
  await client.emitEvent({ type: "payment.succeeded" });
  expect((await client.listDeliveries({ event: emitted.eventId })).attempts).toEqual(emitted.attempts);
  const all = await client.listDeliveries();
  expect(all).toEqual({ attempts: emulator.deliveries(), recorded: 2 });
  // Only what was recorded since a listing: the retry below, one attempt.
  const retried = await client.retryDelivery(emitted.attempts[0].id);
  expect(await client.listDeliveries({ after: all.recorded })).toEqual({ attempts: [retried], recorded: 3 });

  expect(retried).toMatchObject({ id: emitted.attempts[0].id, attempt: 2, trigger: "manual", status: 200, outcome: "delivered" });
  expect(receiver.received).toHaveLength(3);
});

it("sets faults and reads them back with what each /v1 request met", async () => {
  expect(await client.setFaults({ script: ["internal_error"] })).toMatchObject({ failureRate: 0, script: ["internal_error"] });
  expect((await call(emulator, "/v1/message_batches", { json: { stream: "s", messages: [message(0)] } })).status).toBe(500);
  expect(await client.getFaults()).toMatchObject({ script: [], log: ["internal_error"] });
  expect(await client.setFaults({ failureRate: 0.5, seed: 7 })).toEqual(expect.objectContaining({ failureRate: 0.5, seed: 7 }));
});

it("checks its input with the table's schemas before any request", async () => {
  const before = emulator.events().length;
  const faultsBefore = await client.getFaults();
  for (const attempt of [
    () => client.emitEvent({ type: "" }),
    () => client.setFaults({ failureRate: 2 }),
    () => client.retryDelivery(""),
    // The emulator would refuse these too (400, an ApiError): the client does first.
    () => client.listBatches({ limit: 0 }),
    () => client.listBatches({ limit: 10_001 }),
    () => client.listDeliveries({ after: -1 }),
  ]) {
    const error = await attempt().catch((thrown: unknown) => thrown);
    expect(isValidationError(error)).toBe(true);
  }
  expect(emulator.events()).toHaveLength(before);
  expect(await client.getFaults()).toEqual(faultsBefore);
});

it("a refusal is the ApiError of its status with the emulator's problem; the key never shows", async () => {
  const refused = await client.retryDelivery("dlv_nope").catch((error: unknown) => error);
  expect(isApiError(refused) && refused.status === 404 && refused.problem?.title === "not_found").toBe(true);

  const wrong = new EmulatorClient({ baseUrl: emulator.url, apiKey: "sk_test_wrong_key" });
  closers.push(() => wrong.close());
  const unauthorized = await wrong.listEndpoints().catch((error: unknown) => error);
  expect(isApiError(unauthorized) && unauthorized.status === 401).toBe(true);
  expect(String((unauthorized as Error).message)).not.toContain("sk_test_wrong_key");
  const unknownBatch = await client.listBatches({ after: "msba_nope" }).catch((error: unknown) => error);
  expect(isApiError(unknownBatch) && unknownBatch.status === 400 && unknownBatch.problem?.errors?.after !== undefined).toBe(true);
});

it("an emulator that cannot be reached is the client's ConnectionError, with its advice and no retry", async () => {
  const port = await freeLoopbackPort();
  const unreachable = new EmulatorClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "sk_test_unreachable_key" });
  closers.push(() => unreachable.close());
  const failure = await unreachable.emitEvent({ type: "payment.succeeded" }).catch((error: unknown) => error);
  expect(isConnectionError(failure)).toBe(true);
  expect((failure as ConnectionError).attempts).toBe(1);
  expect((failure as Error).message).toMatch(/^POST \/_emulator\/events: connection failed after 1 attempt\(s\): .*ECONNREFUSED/);
  expect((failure as Error).message).toContain("nothing accepts connections there");
  expect((failure as Error).message).not.toContain("sk_test_unreachable_key");
});

it("an answer that does not match the table is a ResponseSchemaError", async () => {
  const { createServer } = await import("node:http");
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('[{"id":1}]'));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as import("node:net").AddressInfo;
  const other = new EmulatorClient({ baseUrl: `http://127.0.0.1:${port}` });
  closers.push(() => other.close());
  const error = await other.listEndpoints().catch((thrown: unknown) => thrown);
  expect(isResponseSchemaError(error) && error.fieldErrors["[0].id"] !== undefined).toBe(true);
});

it("has a method or a caller for every operation of the table", () => {
  expect(
    Object.keys(EMULATOR_OPERATIONS).filter((name) => typeof (client as unknown as Record<string, unknown>)[name] !== "function"),
  ).toEqual([]);
});
