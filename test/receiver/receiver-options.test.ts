/** Receiver arguments and options: typed errors that say what to pass, and the signature-entry cap. */
import { isConfigurationError, isSignatureVerificationError } from "../../errors";
import {
  MAX_SIGNATURE_ENTRIES,
  MemoryReplayGuard,
  createWebhookHandler,
  createWebhookRequestHandler,
  parseSignatureHeader,
  signPayload,
  verifySignature,
  verifyWebhookRequest,
} from "../../receiver";

const SECRET = "whsec_options_test";
const BODY = JSON.stringify({ id: "evt_o1", type: "payment.succeeded", created: "2024-06-01T12:00:00Z", data: { object: {} } });

function request(body = BODY, header = signPayload(BODY, SECRET)): Request {
  return new Request("http://receiver.test/webhooks", { method: "POST", body, headers: { "x-service-signature": header } });
}

async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("verifyWebhookRequest argument errors", () => {
  it("the handlers refuse the same options at creation", () => {
    const onEvent = () => undefined;
    for (const create of [createWebhookHandler, createWebhookRequestHandler] as const) {
      for (const headerName of ["", " ", "a:b"]) {
        let error: unknown;
        try {
          create({ secret: SECRET, onEvent, headerName });
        } catch (e) {
          error = e;
        }
        expect(isConfigurationError(error) && error.message).toMatch(/headerName must be an HTTP header name/);
      }
    }
  });

  it("the Web handler answers 500 (not a TypeError) to a request whose body was read, and rejects a non-Request", async () => {
    const errors: unknown[] = [];
    const handle = createWebhookRequestHandler({ secret: SECRET, onEvent: () => undefined, onError: (error) => errors.push(error) });
    const req = request();
    await req.arrayBuffer();
    const response = await handle(req);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/already been read/);
    expect(isConfigurationError(errors[0])).toBe(true);
    expect(isConfigurationError(await errorOf(() => handle({} as never)))).toBe(true);
  });
});

describe("MemoryReplayGuard options", () => {
  it.each([
    ["ttlSeconds", NaN],
    ["ttlSeconds", -5],
    ["ttlSeconds", 0],
    ["ttlSeconds", 1.5],
    ["ttlSeconds", Infinity],
    ["maxEntries", NaN],
    ["maxEntries", -1],
    ["maxEntries", 0],
    ["maxEntries", 2.5],
    ["maxEntries", Infinity],
    ["maxEntries", "10"],
  ])("refuses %s: %p", (name, value) => {
    let error: unknown;
    try {
      new MemoryReplayGuard({ [name]: value } as never);
    } catch (e) {
      error = e;
    }
    expect(isConfigurationError(error)).toBe(true);
    expect((error as Error).message).toContain(`${name} must be a positive whole number`);
  });

  it("accepts whole positive values and the defaults", () => {
    expect(() => new MemoryReplayGuard({ ttlSeconds: 1, maxEntries: 1 })).not.toThrow();
    expect(() => new MemoryReplayGuard()).not.toThrow();
  });
});

describe("signature entries", () => {
  const t = Math.floor(Date.now() / 1000);
  const forged = (count: number) => Array.from({ length: count }, (_, i) => `sha256=${i.toString(16).padStart(64, "0")}`);

  it(`accepts up to ${MAX_SIGNATURE_ENTRIES} different sha256 entries, refuses more, and counts duplicates once`, () => {
    expect(parseSignatureHeader([`t=${t}`, ...forged(MAX_SIGNATURE_ENTRIES)].join(",")).signatures).toHaveLength(MAX_SIGNATURE_ENTRIES);
    const error = (() => {
      try {
        parseSignatureHeader([`t=${t}`, ...forged(MAX_SIGNATURE_ENTRIES + 1)].join(","));
      } catch (e) {
        return e;
      }
    })();
    expect(isSignatureVerificationError(error) && error.reason).toBe("malformed_header");
    const repeated = [`t=${t}`, ...Array.from({ length: 20 }, () => forged(1)[0])].join(",");
    expect(parseSignatureHeader(repeated).signatures).toHaveLength(1);
  });

  it("a forged header of 200 entries is refused as malformed, before any HMAC", () => {
    const header = [`t=${t}`, ...forged(200)].join(",");
    let error: unknown;
    try {
      verifySignature(BODY, header, SECRET);
    } catch (e) {
      error = e;
    }
    expect(isSignatureVerificationError(error) && error.reason).toBe("malformed_header");
  });

  it("Web Crypto computes one HMAC per secret, whatever the number of entries", async () => {
    const sign = jest.spyOn(globalThis.crypto.subtle, "sign");
    try {
      const header = [`t=${t}`, ...forged(MAX_SIGNATURE_ENTRIES)].join(",");
      const error = await errorOf(() => verifyWebhookRequest(request(BODY, header), [SECRET, "whsec_second"]));
      expect(isSignatureVerificationError(error) && error.reason).toBe("no_matching_signature");
      expect(sign).toHaveBeenCalledTimes(2);
      sign.mockClear();
      // An honest request matching the first secret costs one.
      await verifyWebhookRequest(request(), [SECRET, "whsec_second"]);
      expect(sign).toHaveBeenCalledTimes(1);
    } finally {
      sign.mockRestore();
    }
  });
});
