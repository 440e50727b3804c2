import { createHmac } from "node:crypto";
import {
  ConfigurationError,
  SignatureVerificationError,
  isConfigurationError,
  isSignatureVerificationError,
} from "../../errors/messaging-error";
import {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  formatSignatureHeader,
  parseSignatureHeader,
  signPayload,
  verifySignature,
} from "../../receiver";

const SECRET = "whsec_test_secret";
const T = 1717243200; // 2024-06-01T12:00:00Z
const BODY =
  '{"id":"evt_1","created":"2024-06-01T12:00:00Z","data":{"object":{"id":"pay_1"},"previous":null},"request":{"id":"req_1","idempotency_key":"key_1"}}';
// Computed outside Node, so a change of format or of what is signed shows here:
//   printf '%s' "1717243200.$BODY" | openssl dgst -sha256 -hmac 'whsec_test_secret'
const OPENSSL_HEX = "a586a0eeeb2660edaa7877313b59c24ebc9ac1c0c6c65770db76efd61c18ad2f";

function hmacHex(secret: string, t: number, body: string | Buffer): string {
  return createHmac("sha256", secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(body)]))
    .digest("hex");
}

/** Runs fn, expects a SignatureVerificationError, returns it. */
function failure(fn: () => unknown): SignatureVerificationError {
  try {
    fn();
  } catch (error) {
    expect(isSignatureVerificationError(error)).toBe(true);
    expect(error).toBeInstanceOf(SignatureVerificationError);
    return error as SignatureVerificationError;
  }
  throw new Error("expected verification to fail");
}

function expectNoSecrets(error: Error, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain(hmacHex(secret, T, BODY));
  }
}

describe("constants", () => {
  it("uses the lower-case header name Node delivers and a 5-minute tolerance", () => {
    expect(SIGNATURE_HEADER).toBe("x-service-signature");
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });
});

describe("signPayload", () => {
  it("matches the openssl known-answer vector", () => {
    expect(signPayload(BODY, SECRET, T)).toBe(`t=${T},sha256=${OPENSSL_HEX}`);
  });

  it("is HMAC-SHA256(secret, `${t}.${body}`) in lower-case hex", () => {
    const body = '{"id":"evt_2","type":"payment.succeeded"}';
    expect(signPayload(body, "another-secret", 42)).toBe(`t=42,sha256=${hmacHex("another-secret", 42, body)}`);
  });

  it("signs a Buffer and the same string alike, including non-ASCII text", () => {
    const body = '{"id":"evt_é","data":{"object":{"name":"Wanjirũ 🚀"}}}';
    expect(signPayload(Buffer.from(body, "utf8"), SECRET, T)).toBe(signPayload(body, SECRET, T));
  });

  it("defaults the timestamp to now, in whole seconds", () => {
    const before = Math.floor(Date.now() / 1000);
    const header = signPayload(BODY, SECRET);
    const after = Math.floor(Date.now() / 1000);
    const t = Number(/^t=(\d+),/.exec(header)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
    expect(verifySignature(BODY, header, SECRET)).toEqual({ timestamp: t, secretIndex: 0 });
  });

  it("gives one sha256 entry per secret", () => {
    expect(signPayload(BODY, [SECRET, "old"], T)).toBe(`t=${T},sha256=${OPENSSL_HEX},sha256=${hmacHex("old", T, BODY)}`);
  });

  it("rejects an empty secret and a timestamp that is not whole seconds", () => {
    expect(() => signPayload(BODY, "", T)).toThrow(ConfigurationError);
    expect(() => signPayload(BODY, [], T)).toThrow(ConfigurationError);
    expect(() => signPayload(BODY, SECRET, 1.5)).toThrow(/whole, non-negative Unix seconds/);
    expect(() => signPayload(BODY, SECRET, -1)).toThrow(ConfigurationError);
    expect(() => signPayload(BODY, SECRET, Date.now())).toThrow(/milliseconds/);
  });
});

describe("verifySignature", () => {
  const header = `t=${T},sha256=${OPENSSL_HEX}`;
  const at = { nowSeconds: T };

  it("accepts the known-answer vector and says when it was signed", () => {
    expect(verifySignature(BODY, header, SECRET, at)).toEqual({ timestamp: T, secretIndex: 0 });
  });

  it("accepts a Buffer body and a string body alike", () => {
    expect(verifySignature(Buffer.from(BODY), header, SECRET, at)).toEqual({ timestamp: T, secretIndex: 0 });
    const signedAsBuffer = signPayload(Buffer.from(BODY), SECRET, T);
    expect(() => verifySignature(BODY, signedAsBuffer, SECRET, at)).not.toThrow();
  });

  it("accepts upper-case hex, spaces after commas, and entries in any order", () => {
    expect(() => verifySignature(BODY, `sha256=${OPENSSL_HEX.toUpperCase()}, t=${T}`, SECRET, at)).not.toThrow();
  });

  it("ignores unknown schemes but still needs one sha256 entry", () => {
    expect(() => verifySignature(BODY, `t=${T},v0=abc,sha256=${OPENSSL_HEX},v2=zzz`, SECRET, at)).not.toThrow();
    const error = failure(() => verifySignature(BODY, `t=${T},v0=${OPENSSL_HEX}`, SECRET, at));
    expect(error.reason).toBe("malformed_header");
    expect(error.message).toMatch(/no sha256= signature entry \(schemes present: v0\)/);
  });

  describe("missing_header", () => {
    it.each([
      ["undefined", undefined],
      ["an empty string", ""],
      ["blank", "   "],
      ["an empty array", []],
    ])("when the header is %s", (_label, value) => {
      const error = failure(() => verifySignature(BODY, value, SECRET, at));
      expect(error.reason).toBe("missing_header");
      expect(error.code).toBe("signature_verification_failed");
      expect(error.message).toMatch(/no signature header/);
    });
  });

  describe("malformed_header", () => {
    it.each([
      ["no timestamp", `sha256=${OPENSSL_HEX}`, /no t= timestamp/],
      ["no signature", `t=${T}`, /no sha256= signature entry/],
      ["a non-numeric timestamp", `t=abc,sha256=${OPENSSL_HEX}`, /whole Unix seconds/],
      ["a fractional timestamp", `t=${T}.5,sha256=${OPENSSL_HEX}`, /whole Unix seconds/],
      ["two different timestamps", `t=${T},t=${T + 1},sha256=${OPENSSL_HEX}`, /two different t= timestamps/],
      ["a short signature", `t=${T},sha256=abcd`, /64 hexadecimal characters \(got 4 characters\)/],
      ["a non-hex signature", `t=${T},sha256=${"z".repeat(64)}`, /64 hexadecimal characters/],
      ["an entry without '='", `t=${T},garbage,sha256=${OPENSSL_HEX}`, /entry 2 is not of the form key=value/],
    ])("with %s", (_label, value, message) => {
      const error = failure(() => verifySignature(BODY, value, SECRET, at));
      expect(error.reason).toBe("malformed_header");
      expect(error.message).toMatch(message);
      expectNoSecrets(error, SECRET);
    });
  });

  describe("no_matching_signature", () => {
    it("when the body was tampered with", () => {
      const tampered = BODY.replace("pay_1", "pay_2");
      const error = failure(() => verifySignature(tampered, header, SECRET, at));
      expect(error.reason).toBe("no_matching_signature");
      expect(error.message).toMatch(/none of the 1 sha256 signature\(s\).*1 configured secret\(s\)/);
      expect(error.message).toMatch(/raw body/);
      expectNoSecrets(error, SECRET);
      expect(error.message).not.toContain(hmacHex(SECRET, T, tampered));
    });

    it("when the body was re-serialized (whitespace differs)", () => {
      const reserialized = JSON.stringify(JSON.parse(BODY), null, 2);
      expect(failure(() => verifySignature(reserialized, header, SECRET, at)).reason).toBe("no_matching_signature");
    });

    it("when the secret is wrong", () => {
      const error = failure(() => verifySignature(BODY, header, "whsec_wrong", at));
      expect(error.reason).toBe("no_matching_signature");
      expectNoSecrets(error, SECRET, "whsec_wrong");
    });

    it("when the timestamp was changed (it is part of what is signed)", () => {
      const error = failure(() => verifySignature(BODY, `t=${T + 1},sha256=${OPENSSL_HEX}`, SECRET, at));
      expect(error.reason).toBe("no_matching_signature");
    });
  });

  describe("tolerance", () => {
    it.each([
      ["exactly 300 s old", T + 300],
      ["exactly 300 s in the future", T - 300],
      ["1 s old", T + 1],
    ])("accepts a signature %s", (_label, now) => {
      expect(verifySignature(BODY, header, SECRET, { nowSeconds: now })).toEqual({ timestamp: T, secretIndex: 0 });
    });

    it("rejects a signature 301 s old, naming the age and the tolerance", () => {
      const error = failure(() => verifySignature(BODY, header, SECRET, { nowSeconds: T + 301 }));
      expect(error.reason).toBe("timestamp_out_of_tolerance");
      expect(error.message).toMatch(/301 s in the past, beyond the 300 s tolerance/);
      expectNoSecrets(error, SECRET);
    });

    it("rejects a signature 301 s in the future", () => {
      const error = failure(() => verifySignature(BODY, header, SECRET, { nowSeconds: T - 301 }));
      expect(error.reason).toBe("timestamp_out_of_tolerance");
      expect(error.message).toMatch(/301 s in the future/);
    });

    it("uses the system clock by default", () => {
      const old = signPayload(BODY, SECRET, Math.floor(Date.now() / 1000) - 3600);
      expect(failure(() => verifySignature(BODY, old, SECRET)).reason).toBe("timestamp_out_of_tolerance");
      expect(() => verifySignature(BODY, signPayload(BODY, SECRET), SECRET)).not.toThrow();
    });

    it("honours a custom tolerance; Infinity disables the check; 0 requires the same second", () => {
      expect(() => verifySignature(BODY, header, SECRET, { nowSeconds: T + 600, toleranceSeconds: 600 })).not.toThrow();
      expect(failure(() => verifySignature(BODY, header, SECRET, { nowSeconds: T + 11, toleranceSeconds: 10 })).reason).toBe(
        "timestamp_out_of_tolerance",
      );
      expect(() => verifySignature(BODY, header, SECRET, { nowSeconds: T + 10 ** 9, toleranceSeconds: Infinity })).not.toThrow();
      expect(() => verifySignature(BODY, header, SECRET, { nowSeconds: T, toleranceSeconds: 0 })).not.toThrow();
      expect(failure(() => verifySignature(BODY, header, SECRET, { nowSeconds: T + 1, toleranceSeconds: 0 })).reason).toBe(
        "timestamp_out_of_tolerance",
      );
    });

    it("checks the signature before the timestamp, so a forged old request is reported as forged", () => {
      const forged = `t=${T - 10_000},sha256=${"0".repeat(64)}`;
      expect(failure(() => verifySignature(BODY, forged, SECRET, at)).reason).toBe("no_matching_signature");
    });

    it("rejects a negative or NaN tolerance as a configuration error", () => {
      for (const toleranceSeconds of [-1, Number.NaN]) {
        expect(() => verifySignature(BODY, header, SECRET, { ...at, toleranceSeconds })).toThrow(ConfigurationError);
      }
    });
  });

  describe("rotation", () => {
    it("accepts a match on the second secret and reports which one matched", () => {
      expect(verifySignature(BODY, header, ["whsec_new", SECRET], at)).toEqual({ timestamp: T, secretIndex: 1 });
    });

    it("accepts a match on the second sha256 entry", () => {
      const twoEntries = `t=${T},sha256=${hmacHex("whsec_old", T, BODY)},sha256=${OPENSSL_HEX}`;
      expect(verifySignature(BODY, twoEntries, SECRET, at)).toEqual({ timestamp: T, secretIndex: 0 });
    });

    it("accepts a header signed with both secrets, by either secret alone", () => {
      const both = signPayload(BODY, ["whsec_new", "whsec_old"], T);
      expect(verifySignature(BODY, both, "whsec_old", at).secretIndex).toBe(0);
      expect(verifySignature(BODY, both, ["whsec_new"], at).secretIndex).toBe(0);
    });

    it("fails when no secret matches any entry, counting both, and reveals none", () => {
      const twoEntries = `t=${T},sha256=${hmacHex("a", T, BODY)},sha256=${hmacHex("b", T, BODY)}`;
      const error = failure(() => verifySignature(BODY, twoEntries, ["c", "d"], at));
      expect(error.reason).toBe("no_matching_signature");
      expect(error.message).toMatch(/none of the 2 sha256 signature\(s\).*2 configured secret\(s\)/);
      expect(error.message).not.toContain(hmacHex("c", T, BODY));
      expect(error.message).not.toContain(hmacHex("d", T, BODY));
    });

    it("rejects an empty secret list or an empty secret in it as a configuration error", () => {
      expect(() => verifySignature(BODY, header, [], at)).toThrow(ConfigurationError);
      let error: unknown;
      try {
        verifySignature(BODY, header, [SECRET, ""], at);
      } catch (e) {
        error = e;
      }
      expect(isConfigurationError(error)).toBe(true);
      expect((error as Error).message).toMatch(/index 1/);
    });
  });

  describe("array header values (a repeated header)", () => {
    it("reads entries across the values", () => {
      expect(() => verifySignature(BODY, [`t=${T}`, `sha256=${OPENSSL_HEX}`], SECRET, at)).not.toThrow();
      expect(() => verifySignature(BODY, [`t=${T},sha256=${"0".repeat(64)}`, `t=${T},sha256=${OPENSSL_HEX}`], SECRET, at)).not.toThrow();
    });

    it("still fails on conflicting timestamps across values", () => {
      const error = failure(() => verifySignature(BODY, [`t=${T},sha256=${OPENSSL_HEX}`, `t=${T - 1},sha256=${OPENSSL_HEX}`], SECRET, at));
      expect(error.reason).toBe("malformed_header");
    });

    it("treats an array of blank values as missing", () => {
      expect(failure(() => verifySignature(BODY, ["", " "], SECRET, at)).reason).toBe("missing_header");
    });
  });
});

describe("parseSignatureHeader / formatSignatureHeader", () => {
  it("round-trips, lower-casing hex and dropping unknown schemes", () => {
    const parsed = parseSignatureHeader(`v0=x, t=${T}, SHA256=${OPENSSL_HEX.toUpperCase()}`);
    expect(parsed).toEqual({ timestamp: T, signatures: [OPENSSL_HEX] });
    expect(formatSignatureHeader(parsed)).toBe(`t=${T},sha256=${OPENSSL_HEX}`);
  });
});
