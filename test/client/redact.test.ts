/**
 * Redaction of the API key from what a server echoes: a canary key in every form a server or
 * proxy may send back (case variants, header forms, base64 with and without ':') never
 * reaches an error, through the redactor and through a real client against a real server.
 */
import { inspect } from "node:util";
import { MessagingClient } from "../../client";
import { createRedactor, REDACTED } from "../../client/redact";
import { startServer, type TestServer } from "./loopback-server";

const CANARY = "sk_live_CANARY+key/with=odd.chars";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** Every form of the canary a server might echo, by name. */
const FORMS: Array<[string, string]> = [
  ["the key", CANARY],
  ["the key upper-cased", CANARY.toUpperCase()],
  ["the key lower-cased", CANARY.toLowerCase()],
  ["the key URL-encoded", encodeURIComponent(CANARY)],
  ["the key URL-encoded, lower-case hex", encodeURIComponent(CANARY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ["the Authorization header", `Basic ${b64(`${CANARY}:`)}`],
  ["the header with a lower-case scheme", `basic ${b64(`${CANARY}:`)}`],
  ["the header upper-cased", `BASIC ${b64(`${CANARY}:`)}`.toUpperCase()],
  ["the header with two spaces", `Basic  ${b64(`${CANARY}:`)}`],
  ["base64 of key:", b64(`${CANARY}:`)],
  ["base64 of key: without padding", b64(`${CANARY}:`).replace(/=+$/, "")],
  ["base64 of the key without ':'", b64(CANARY)],
  ["base64 of the key without ':' or padding", b64(CANARY).replace(/=+$/, "")],
  ["base64url of key:", b64url(`${CANARY}:`)],
  ["base64url of the key", b64url(CANARY)],
  ["base64 of key: upper-cased", b64(`${CANARY}:`).toUpperCase()],
];

describe("createRedactor", () => {
  const redact = createRedactor(CANARY);
  it.each(FORMS)("removes %s from text", (_, form) => {
    const out = redact.text(`before ${form} after`);
    expect(out).toBe(`before ${REDACTED} after`);
  });

  it.each(FORMS)("removes %s from JSON keys and values", (_, form) => {
    const out = JSON.stringify(redact.json({ [`k ${form}`]: [`v ${form}`], nested: { deep: form } }));
    expect(out).not.toContain(form);
    expect(out).toContain(REDACTED);
  });

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

describe("a real client against a server echoing the key in every form", () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it("no form of the key reaches the error, its inspect output or its JSON", async () => {
    server = await startServer((_req, res) => {
      const detail = FORMS.map(([name, form]) => `${name}: ${form}`).join("; ");
      res.writeHead(401, { "content-type": "application/problem+json" }).end(
        JSON.stringify({
          type: "urn:x",
          title: "unauthorized",
          detail,
          errors: Object.fromEntries(FORMS.map(([, form]) => [form, [form]])),
        }),
      );
    });
    const client = new MessagingClient({ apiKey: CANARY, baseUrl: server.url, maxRetries: 0 });
    let thrown: unknown;
    try {
      await client.sendMessageBatch({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: "x" }] });
    } catch (error) {
      thrown = error;
    } finally {
      await client.close();
    }
    expect(thrown).toBeDefined();
    const everything = [String((thrown as Error).message), inspect(thrown, { depth: 10, showHidden: true }), JSON.stringify(thrown)].join(
      "\n",
    );
    for (const [name, form] of FORMS) expect([name, everything.includes(form)]).toEqual([name, false]);
    expect(everything.toLowerCase()).not.toContain("canary");
  });
});
