/**
 * An event is recorded as processed only once `onEvent` resolved: `MemoryReplayGuard`'s
 * claims, and the handlers' answer to a delivery of an event in progress (503, never 204).
 */
import { isConfigurationError } from "../../errors";
import { MemoryReplayGuard, createWebhookRequestHandler, signPayload, type ReplayGuard } from "../../receiver";

const SECRET = "whsec_claims_test";
const BODY = JSON.stringify({ id: "evt_c1", type: "payment.succeeded", created: "2024-06-01T12:00:00Z", data: { object: {} } });

function request(): Request {
  return new Request("http://receiver.test/webhooks", {
    method: "POST",
    body: BODY,
    headers: { "x-service-signature": signPayload(BODY, SECRET) },
  });
}

describe("MemoryReplayGuard claims", () => {
  it("claimed → in_progress until complete → done; forget makes it new again", () => {
    const guard = new MemoryReplayGuard();
    expect(guard.claim("evt_1")).toBe("claimed");
    expect(guard.claim("evt_1")).toBe("in_progress");
    expect(guard.seen("evt_1")).toBe(true);
    guard.complete("evt_1");
    expect(guard.claim("evt_1")).toBe("done");
    guard.forget("evt_1");
    expect(guard.claim("evt_1")).toBe("claimed");
    guard.forget("evt_1");
    expect(guard.claim("evt_1")).toBe("claimed");
  });

  it("never evicts an id in progress to make room", () => {
    const guard = new MemoryReplayGuard({ maxEntries: 1 });
    expect(guard.claim("evt_running")).toBe("claimed");
    for (const id of ["evt_a", "evt_b", "evt_c"]) guard.complete(id);
    expect(guard.claim("evt_running")).toBe("in_progress");
  });
});

describe.each([
  ["MemoryReplayGuard", () => new MemoryReplayGuard() as ReplayGuard],
  [
    "a guard with only seen() and forget()",
    () => {
      const ids = new Set<string>();
      return { seen: (id: string) => ids.has(id) || (ids.add(id), false), forget: (id: string) => void ids.delete(id) } as ReplayGuard;
    },
  ],
])("createWebhookRequestHandler with %s", (_name, makeGuard) => {
  it("answers a second delivery while the first is processed 503 event_in_progress, then processes it after a failure", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The second delivery is sent only once the first is inside onEvent: Web Crypto's HMAC
    // runs on the thread pool, so two deliveries sent together may verify in either order.
    let entered!: () => void;
    const firstEntered = new Promise<void>((resolve) => (entered = resolve));
    let calls = 0;
    const handle = createWebhookRequestHandler({
      secret: SECRET,
      replayGuard: makeGuard(),
      onError: () => undefined,
      onEvent: async () => {
        calls += 1;
        if (calls === 1) {
          entered();
          await held;
          throw new Error("failed");
        }
      },
    });
    const first = handle(request());
    await firstEntered;
    const second = await handle(request());
    expect(second.status).toBe(503);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await second.json()) as { title: string }).title).toBe("event_in_progress");
    release();
    expect((await first).status).toBe(500);
    expect((await handle(request())).status).toBe(204);
    expect(calls).toBe(2);
    expect((await handle(request())).status).toBe(204); // processed: a duplicate, not processed again
    expect(calls).toBe(2);
  });
});

it("refuses a guard with claim() but no complete()", () => {
  let thrown: unknown;
  try {
    createWebhookRequestHandler({ secret: SECRET, onEvent: () => undefined, replayGuard: { seen: () => false, claim: () => "claimed" } });
  } catch (error) {
    thrown = error;
  }
  expect(isConfigurationError(thrown)).toBe(true);
  expect(String((thrown as Error).message)).toContain("complete(eventId)");
});
