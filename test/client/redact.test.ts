/**
 * The redactor beyond its canary rows: the canary key in every form a server or proxy may
 * echo, through the redactor and through a real client, is a row each of the hostile-input
 * table (test/support/hostile-cases.ts).
 */
import { createRedactor, REDACTED } from "../../client/redact";

const CANARY = "sk_live_CANARY+key/with=odd.chars";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

describe("createRedactor", () => {
  const redact = createRedactor(CANARY);
  it.each([
    [16, 17, 18].map((n) => "k".repeat(n)), // each length mod 3, so base64 alignments differ
  ])("works for keys of every length mod 3", (...keys) => {
    for (const key of keys) {
      const r = createRedactor(key);
      for (const form of [key, b64(key), b64(`${key}:`), `basic ${b64(`${key}:`)}`]) expect(r.text(`x ${form} y`)).toBe(`x ${REDACTED} y`);
    }
  });

  it("leaves text without the key alone", () => {
    expect(redact.text("nothing to see: sk_live_other")).toBe("nothing to see: sk_live_other");
  });
});
