"use strict";
// Child process of bench/run.js: the size of the serialized provider shell, i.e. the
// `__provider` text Pulumi stores in the state of every WebhookEndpoint / MessageBatch.
// A child of its own because it loads @pulumi/pulumi and sets the SDK's global mocks; it
// sends one { kind: "result", … } message and then exits by itself (exiting early would
// make the SDK report leaked promises).

const { createProviderShell } = require("../dist/provider/shell");
const { median, msSince, now, timeRepeated } = require("./lib");

async function measure() {
  // Exactly what pulumi.dynamic.Resource stores as `__provider` (dynamic/index.js,
  // serializeProvider): serializeFunction(() => provider, { allowSecrets: true }).text
  const loadStart = now();
  const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");
  const closureModuleLoadMs = msSince(loadStart);
  const shells = [];
  for (const kind of ["WebhookEndpoint", "MessageBatch"]) {
    const provider = createProviderShell(kind);
    const firstStart = now();
    const first = await serializeFunction(() => provider, { allowSecrets: true });
    const firstSerializeMs = msSince(firstStart);
    const times = await timeRepeated(() => serializeFunction(() => createProviderShell(kind), { allowSecrets: true }), 5);
    const text = first.text;
    shells.push({
      kind,
      bytes: Buffer.byteLength(text, "utf8"),
      lines: text.split("\n").length,
      containsSecrets: first.containsSecrets,
      reachesRuntimeByRequire: text.includes('require("pulumi-messaging/dist/provider/runtime")'),
      capturesZodOrUndici: /zod|undici/.test(text),
      firstSerializeMs,
      medianSerializeMs: median(times),
    });
  }

  // Cross-check: the value a real WebhookEndpoint hands to the engine, under the SDK's mocks.
  const pulumi = require("@pulumi/pulumi");
  let stored;
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        stored = args.inputs.__provider;
        return { id: "we_bench", state: args.inputs };
      },
      call: () => ({}),
    },
    "bench",
    "bench",
    false,
  );
  const { WebhookEndpoint } = require("../dist/provider");
  const endpoint = new WebhookEndpoint("bench", { url: "https://example.com/hooks", events: ["payment.succeeded"] });
  await new Promise((resolve) => endpoint.urn.apply(() => endpoint.id.apply(resolve)));
  return {
    sdkVersion: require("@pulumi/pulumi/package.json").version,
    closureModuleLoadMs,
    shells,
    storedByWebhookEndpointBytes: typeof stored === "string" ? Buffer.byteLength(stored, "utf8") : null,
  };
}

measure().then(
  (result) => {
    process.send({ kind: "result", ...result }, () => process.disconnect());
  },
  (error) => {
    process.send({ kind: "error", error: String(error && error.stack ? error.stack : error) }, () => process.disconnect());
    process.exitCode = 1;
  },
);
