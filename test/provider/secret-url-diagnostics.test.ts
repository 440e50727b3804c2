/**
 * A webhook endpoint's `url` may be a Pulumi secret: it can hold the receiver's credentials
 * (`https://user:password@…`). The dynamic host hands the runtime its values unwrapped and
 * unmarked, so no message built from a resource's values may print it. This walks every
 * diagnostic the WebhookEndpoint runtime emits (warnings, check failures, errors and init
 * failure reasons) with such a url, and looks for it in each.
 */
import { testContext } from "../support/provider-context";
import { nullEndpointState } from "../support/endpoint-state";
import { parseResponseBody } from "../../client/response";
import { ResponseSchemaError } from "../../errors";
import { webhookEndpoint } from "../../provider/kinds/webhook-endpoint";
import { IDEMPOTENCY_KEY_MEMORY_MS as KEY_MEMORY_MS } from "../../schemas/idempotency-key";
import { IDEMPOTENCY_SCOPE } from "../../provider/protocol";
import { WebhookEndpointObject } from "../../schemas";

const PASSWORD = "TopSecretPw123";
const SECRET_URL = `https://hookuser:${PASSWORD}@hooks.example.com/payments`;
const impl = webhookEndpoint.implementation;
const inputs = { url: SECRET_URL, events: ["payment.succeeded"], format: "basic", [IDEMPOTENCY_SCOPE]: "proj/dev/main" };

const answered = (body: Record<string, unknown>): WebhookEndpointObject =>
  parseResponseBody(
    WebhookEndpointObject,
    { status: 200, headers: {}, json: body, empty: false, redact: (text: string) => text },
    { method: "POST", path: "/v1/webhooks/endpoints" },
  );
const unreadableSecret = (id: string) =>
  new ResponseSchemaError({ method: "POST", path: "/v1/webhooks/endpoints", idempotencyKey: "k" }, { secret: ["expected a secret"] }, id);
const clientAnswering = (answer: () => Promise<unknown>) => ({ createWebhookEndpoint: answer });

const halfMade = (record: Record<string, unknown> = {}) => ({
  ...nullEndpointState(),
  ...inputs,
  createIdempotencyKey: "k",
  createRequestedAt: new Date().toISOString(),
  strayEndpointId: null,
  ...record,
});
const recorded = { ...halfMade(), secret: "whsec_1", createIdempotencyKey: undefined, createRequestedAt: undefined };

/** Every text an outcome shows the user: warnings, failures, an error's message and reasons. */
async function diagnosticsOf(run: (context: ReturnType<typeof testContext>) => unknown, client?: unknown): Promise<string[]> {
  const context = testContext(client);
  const texts: string[] = [];
  try {
    const result = (await run(context)) as { failures?: Array<{ property: string; reason: string }> } | undefined;
    for (const failure of result?.failures ?? []) texts.push(`${failure.property}: ${failure.reason}`);
  } catch (error) {
    const { message, reasons } = error as { message: string; reasons?: string[] };
    texts.push(message, ...(reasons ?? []));
  }
  return [...context.warnings, ...texts];
}

// Each row names its client, if any: jest takes a test function with more parameters than the row has values for one awaiting `done`.
const paths: Array<[string, (context: ReturnType<typeof testContext>) => unknown, unknown]> = [
  ["check: another input invalid", (c) => impl.check(c, {}, { ...inputs, events: [] }), undefined],
  ["check: the url itself invalid", (c) => impl.check(c, {}, { ...inputs, url: `${SECRET_URL}\n` }), undefined],
  [
    "check: an adopted endpoint's url changed",
    (c) =>
      impl.check(
        c,
        { ...inputs, adopt: { id: "we_1", secret: "s" } },
        { ...inputs, url: `${SECRET_URL}2`, adopt: { id: "we_1", secret: "s" } },
      ),
    undefined,
  ],
  [
    "diff: adopt naming the recorded endpoint with the url changed",
    (c) => impl.diff(c, "we_1", recorded, { ...inputs, url: `${SECRET_URL}2`, adopt: { id: "we_1", secret: "s" } }),
    undefined,
  ],
  [
    "create: an answer with unreadable fields",
    (c) => impl.create(c, inputs),
    clientAnswering(async () => answered({ id: "we_1", secret: "whsec_1", live: "yes" })),
  ],
  [
    "create: an answer without a readable secret",
    (c) => impl.create(c, inputs),
    clientAnswering(async () => Promise.reject(unreadableSecret("we_1"))),
  ],
  [
    "update: a half-made endpoint, unreadable again",
    (c) => impl.update(c, "we_1", halfMade(), inputs),
    clientAnswering(async () => Promise.reject(unreadableSecret("we_1"))),
  ],
  [
    "update: a half-made endpoint, another made instead",
    (c) => impl.update(c, "we_1", halfMade(), inputs),
    clientAnswering(async () => answered({ id: "we_2", secret: "whsec_2" })),
  ],
  [
    "update: a half-made endpoint too old to ask about",
    (c) => impl.update(c, "we_1", halfMade({ createRequestedAt: new Date(Date.now() - KEY_MEMORY_MS).toISOString() }), inputs),
    undefined,
  ],
  ["update: anything else", (c) => impl.update(c, "we_1", recorded, inputs), undefined],
  ["read: an import", (c) => impl.read(c, "we_1", {}), undefined],
  ["delete (retainOnDelete: false, a replacement)", (c) => impl.remove(c, "we_1", recorded), undefined],
];

test.each(paths)("%s: says something, and never the url or its password", async (_path, run, client) => {
  const texts = await diagnosticsOf(run, client);
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain("hooks.example.com");
  }
});
