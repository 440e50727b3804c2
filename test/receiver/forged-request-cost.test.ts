/**
 * What makes a forged request cost at most about twice an honest one (bench section 3): the
 * receiver core computes one HMAC per secret whatever the header holds, none for a header
 * that cannot verify, and hands every HMAC the body as received (no copy, no decoding). Counted
 * through an injected HmacProvider, not timed. No network.
 */
import { isSignatureVerificationError } from "../../errors";
import { MAX_SIGNATURE_ENTRIES, signPayload } from "../../receiver";
import { SignedMessage, type HmacProvider } from "../../receiver/core/hmac";
import { receiveWebhook } from "../../receiver/core/receive-webhook";
import { resolveReceiverSettings } from "../../receiver/core/settings";
import { nodeHmacProvider } from "../../receiver/node/hmac";
import { webCryptoHmacProvider } from "../../receiver/web/hmac";

const SECRETS = ["whsec_current_cost_test", "whsec_previous_cost_test"];
const T = 1_790_000_000;
const body = Buffer.from(
  JSON.stringify({ id: "evt_cost", type: "payment.succeeded", created: "2026-11-22T00:00:00Z", data: { object: {} } }),
);

interface Call {
  readonly secret: string;
  readonly message: SignedMessage;
}

/** node:crypto, recording each call. */
function countingProvider(): HmacProvider & { readonly calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    hmacSha256(secret, message) {
      calls.push({ secret, message });
      return nodeHmacProvider.hmacSha256(secret, message);
    },
  };
}

function forgedHeader(entries: number): string {
  return [`t=${T}`, ...Array.from({ length: entries }, (_, i) => `sha256=${(i + 1).toString(16).padStart(64, "0")}`)].join(",");
}

async function receive(header: string, provider: HmacProvider, secrets = SECRETS) {
  let reads = 0;
  const readBody = () => {
    reads++;
    return Promise.resolve(body);
  };
  const settings = resolveReceiverSettings(secrets, {});
  const outcome = await receiveWebhook(header, readBody, settings, provider, T).then(
    (receipt) => ({ receipt, error: undefined }),
    (error: unknown) => ({ receipt: undefined, error }),
  );
  return { ...outcome, reads };
}

describe("the receiver core's work per request", () => {
  it("an honest request matching the first secret computes one HMAC; one matching the second, two", async () => {
    const first = countingProvider();
    expect((await receive(signPayload(body, SECRETS[0], T), first)).receipt?.signature.secretIndex).toBe(0);
    expect(first.calls.map((call) => call.secret)).toEqual([SECRETS[0]]);

    const second = countingProvider();
    expect((await receive(signPayload(body, SECRETS[1], T), second)).receipt?.signature.secretIndex).toBe(1);
    expect(second.calls.map((call) => call.secret)).toEqual(SECRETS);
  });

  it.each([1, 2, MAX_SIGNATURE_ENTRIES])(
    "a forged request with %i sha256 entries computes one HMAC per secret, every secret",
    async (entries) => {
      const provider = countingProvider();
      const { error } = await receive(forgedHeader(entries), provider);
      expect(isSignatureVerificationError(error) && error.reason).toBe("no_matching_signature");
      expect(provider.calls.map((call) => call.secret)).toEqual(SECRETS);
    },
  );

  it("a header that cannot verify computes no HMAC and reads no body", async () => {
    for (const header of ["", forgedHeader(MAX_SIGNATURE_ENTRIES + 1), `t=${T},sha256=abc`, `sha256=${"0".repeat(64)}`]) {
      const provider = countingProvider();
      const { error, reads } = await receive(header, provider);
      expect(isSignatureVerificationError(error)).toBe(true);
      expect({ header, hmacs: provider.calls.length, reads }).toEqual({ header, hmacs: 0, reads: 0 });
    }
  });

  it("every HMAC of a request gets the one signed message, holding the body as read (not a copy)", async () => {
    const provider = countingProvider();
    await receive(forgedHeader(MAX_SIGNATURE_ENTRIES), provider);
    const [a, b] = provider.calls;
    expect(b.message).toBe(a.message);
    expect(a.message.parts[1]).toBe(body);
    expect(Buffer.from(a.message.parts[0]).toString()).toBe(`${T}.`);
  });
});

describe("SignedMessage.contiguous (what Web Crypto signs)", () => {
  it("joins the prefix and the body once, then returns the same buffer", () => {
    const message = new SignedMessage(T, body);
    const joined = message.contiguous();
    expect(Buffer.from(joined).equals(Buffer.concat([Buffer.from(`${T}.`), body]))).toBe(true);
    expect(message.contiguous()).toBe(joined);
  });

  it("so the Web Crypto provider, called for each secret, joins the message once", async () => {
    const message = new SignedMessage(T, body);
    const joins = jest.spyOn(message, "contiguous");
    const sets = jest.spyOn(Uint8Array.prototype, "set");
    try {
      for (const secret of SECRETS) {
        const digest = await webCryptoHmacProvider.hmacSha256(secret, message);
        expect(Buffer.from(digest).equals(Buffer.from(nodeHmacProvider.hmacSha256(secret, message)))).toBe(true);
      }
      expect(joins).toHaveBeenCalledTimes(SECRETS.length);
      expect(sets.mock.calls.filter(([source]) => source === body)).toHaveLength(1); // the body copied once
    } finally {
      joins.mockRestore();
      sets.mockRestore();
    }
  });
});
