/** verifyWebhookRequest (Web Crypto, standard Request), the replay guard, and raw-body guidance. No network. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { isConfigurationError, isSignatureVerificationError, isValidationError } from "../../errors";
import { BodyTooLargeError, MemoryReplayGuard, isEventType, signPayload, verifySignature, verifyWebhookRequest } from "../../receiver";

const SECRET = "whsec_verify_request_test";
const body = JSON.stringify({
  id: "evt_1",
  type: "payment.succeeded",
  created: "2026-11-22T00:00:00Z",
  data: { object: { amount: 1200 }, previous: null },
});

function signedRequest(
  raw: string | Uint8Array,
  header = signPayload(typeof raw === "string" ? raw : Buffer.from(raw), SECRET),
  name = "x-service-signature",
) {
  return new Request("http://receiver.test/webhooks", {
    method: "POST",
    body: raw,
    headers: { [name]: header, "content-type": "application/json" },
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("verifyWebhookRequest", () => {
  it("verifies a signed Request and resolves to the typed event", async () => {
    const event = await verifyWebhookRequest(signedRequest(body), SECRET);
    expect(event.id).toBe("evt_1");
    expect(isEventType(event, "payment.succeeded") && event.data.object).toEqual({ amount: 1200 });
  });

  it("rejects a changed body", async () => {
    const header = signPayload(body, SECRET);
    const error = await rejection(verifyWebhookRequest(signedRequest(body.replace("1200", "9999"), header), SECRET));
    expect(isSignatureVerificationError(error) && error.reason).toBe("no_matching_signature");
  });

  it("rejects a body signed with another secret, and accepts it given both during a rotation", async () => {
    const header = signPayload(body, "whsec_old");
    expect(isSignatureVerificationError(await rejection(verifyWebhookRequest(signedRequest(body, header), SECRET)))).toBe(true);
    const event = await verifyWebhookRequest(signedRequest(body, header), [SECRET, "whsec_old"]);
    expect(event.id).toBe("evt_1");
  });

  it("verifies the exact bytes, also when they are not valid UTF-8 text", async () => {
    const bytes = Buffer.from(body);
    const header = signPayload(bytes, SECRET);
    const tampered = Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from([0xff]), bytes.subarray(bytes.length - 1)]);
    const error = await rejection(verifyWebhookRequest(signedRequest(tampered, header), SECRET));
    expect(isSignatureVerificationError(error) && error.reason).toBe("no_matching_signature");
  });

  it.each([
    ["missing_header", undefined],
    ["malformed_header", "t=abc,sha256=00"],
  ])("reports %s", async (reason, header) => {
    const request = new Request("http://receiver.test/", {
      method: "POST",
      body,
      headers: header ? { "x-service-signature": header } : {},
    });
    const error = await rejection(verifyWebhookRequest(request, SECRET));
    expect(isSignatureVerificationError(error) && error.reason).toBe(reason);
  });

  it("rejects a timestamp outside the tolerance, after checking the signature", async () => {
    const header = signPayload(body, SECRET, 1_700_000_000);
    const error = await rejection(verifyWebhookRequest(signedRequest(body, header), SECRET, { nowSeconds: 1_700_000_301 }));
    expect(isSignatureVerificationError(error) && error.reason).toBe("timestamp_out_of_tolerance");
    await expect(verifyWebhookRequest(signedRequest(body, header), SECRET, { nowSeconds: 1_700_000_300 })).resolves.toMatchObject({
      id: "evt_1",
    });
  });

  it("takes a custom header name", async () => {
    const event = await verifyWebhookRequest(signedRequest(body, signPayload(body, SECRET), "x-other"), SECRET, { headerName: "X-Other" });
    expect(event.id).toBe("evt_1");
  });

  it("stops reading a body over maxBodyBytes", async () => {
    const error = await rejection(verifyWebhookRequest(signedRequest(body), SECRET, { maxBodyBytes: 10 }));
    expect(error).toBeInstanceOf(BodyTooLargeError);
  });

  it("refuses a signed event with a __proto__ key (a ValidationError naming it)", async () => {
    const hostile = `{"id":"evt_2","created":"x","data":{"object":{"__proto__":{"admin":true}}}}`;
    const error = await rejection(verifyWebhookRequest(signedRequest(hostile), SECRET));
    expect(isValidationError(error) && Object.keys(error.fieldErrors)).toEqual(['data.object["__proto__"]']);
  });

  it("refuses an empty secret before reading anything", async () => {
    expect(isConfigurationError(await rejection(verifyWebhookRequest(signedRequest(body), "")))).toBe(true);
  });

  it("with a replay guard, processes each event id once; forget() lets a redelivery through", async () => {
    const replayGuard = new MemoryReplayGuard();
    await verifyWebhookRequest(signedRequest(body), SECRET, { replayGuard });
    const error = await rejection(verifyWebhookRequest(signedRequest(body), SECRET, { replayGuard }));
    expect(isSignatureVerificationError(error) && error.reason).toBe("duplicate_event");
    replayGuard.forget("evt_1");
    await expect(verifyWebhookRequest(signedRequest(body), SECRET, { replayGuard })).resolves.toMatchObject({ id: "evt_1" });
  });

  it.each(["web/verify-request.ts", "web/index.ts"])("uses Web Crypto only: no node: module in what receiver/%s imports", (entry) => {
    const seen = new Set<string>();
    const nodeImports: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, "utf8");
      for (const [, type, spec] of source.matchAll(/^(?:import|export) (type )?[^;]*? from "([^"]+)";/gms)) {
        if (type) continue; // erased at compile time
        if (spec.startsWith("node:")) nodeImports.push(`${path.relative(process.cwd(), file)}: ${spec}`);
        else if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), `${spec}.ts`));
        else if (!["zod"].includes(spec)) nodeImports.push(`${path.relative(process.cwd(), file)}: ${spec}`);
      }
    };
    visit(path.resolve(__dirname, "../../receiver", entry));
    expect(seen.size).toBeGreaterThan(3);
    expect(nodeImports).toEqual([]);
  });
});

describe("MemoryReplayGuard", () => {
  it("forgets ids after the TTL and beyond maxEntries, oldest first", () => {
    let now = 0;
    const guard = new MemoryReplayGuard({ ttlSeconds: 10, maxEntries: 2, now: () => now });
    expect(guard.seen("a")).toBe(false);
    expect(guard.seen("a")).toBe(true);
    expect(guard.seen("b")).toBe(false);
    expect(guard.seen("c")).toBe(false); // pushes "a" out
    expect(guard.seen("a")).toBe(false);
    now = 10_001;
    expect(guard.seen("c")).toBe(false); // expired
  });
});

describe("verifySignature given a parsed body", () => {
  it.each([
    ["an object", { id: "evt_1" }],
    ["null", null],
    ["an array", [1]],
    ["a number", 5],
  ])("says to pass the raw body when given %s", (_name, parsed) => {
    let error: unknown;
    try {
      verifySignature(parsed as never, signPayload(body, SECRET), SECRET);
    } catch (e) {
      error = e;
    }
    expect(isConfigurationError(error)).toBe(true);
    expect((error as Error).message).toMatch(/raw request body .*express\.raw/);
  });
});
