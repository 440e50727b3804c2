/**
 * What the plugin's CheckConfig records and its DiffConfig says: a new provider is a new stack
 * identity unless one is pinned; the API key's fingerprint is recorded from config or the
 * environment, so a key rotated in either is said; a resource moved to another provider is not
 * a changed key. (Through the real CLI: test/engine/identity-survives.test.ts, moved-service.test.ts.)
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { MessagingProvider } from "../../plugin/provider";
import { secret } from "../../plugin/property-values";
import { decodeStruct } from "../../plugin/struct-decoder";
import type { Props } from "../../provider/protocol";

/** Values as the engine sends them and the plugin reads them: a Struct on the wire, secrets unwrapped by the reader. */
const fromWire = (props: Props): Props => decodeStruct(Struct.fromJavaScript(props as never).serializeBinary());

const URN = "urn:pulumi:dev::shop::pulumi:providers:messaging::default_0_1_0";

function provider(): { provider: MessagingProvider; said: string[] } {
  const said: string[] = [];
  return {
    provider: new MessagingProvider(undefined, { warn: (line) => void said.push(line), status: () => undefined, flush: async () => {} }),
    said,
  };
}

describe("the plugin's provider config", () => {
  const saved = process.env.MESSAGING_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.MESSAGING_API_KEY;
    else process.env.MESSAGING_API_KEY = saved;
  });

  test("a new provider (no recorded inputs) says a new identity is made, unless messaging:stackIdentity pins one", () => {
    const { provider: plugin, said } = provider();
    plugin.checkConfig({}, { baseUrl: "http://127.0.0.1:4010" }, URN);
    expect(said).toEqual([expect.stringMatching(/this stack's identity is being made now.*a new plugin version/s)]);
    plugin.checkConfig({}, { stackIdentity: "team-a-0123456789" }, URN);
    plugin.checkConfig({ baseUrl: "http://127.0.0.1:4010" }, { baseUrl: "http://127.0.0.1:4010" }, URN);
    expect(said).toHaveLength(1);
  });

  test("an explicit provider not given an identity takes the stack's pin, which the engine passes every provider (PULUMI_CONFIG)", () => {
    const explicit = "urn:pulumi:dev::shop::pulumi:providers:messaging::eu";
    const saved = process.env.PULUMI_CONFIG;
    try {
      process.env.PULUMI_CONFIG = JSON.stringify({ stackIdentity: "team-a-0123456789", apiKey: "sk_not_read_here" });
      const { provider: plugin, said } = provider();
      const checked = plugin.checkConfig({}, { baseUrl: "http://127.0.0.1:4010" }, explicit);
      expect(checked.inputs).toMatchObject({ stackIdentity: "team-a-0123456789" });
      // The stack's other settings are not an explicit provider's: only the identity is the stack's.
      expect(checked.inputs).not.toHaveProperty("apiKey");
      expect(said).toEqual([]);
      // Its own identity wins; a malformed stack pin is left to the default provider to refuse.
      expect(plugin.checkConfig({}, { stackIdentity: "own-0123456789" }, explicit).inputs).toMatchObject({
        stackIdentity: "own-0123456789",
      });
      process.env.PULUMI_CONFIG = JSON.stringify({ stackIdentity: "x" });
      expect(plugin.checkConfig({}, {}, explicit).inputs).not.toHaveProperty("stackIdentity");
    } finally {
      if (saved === undefined) delete process.env.PULUMI_CONFIG;
      else process.env.PULUMI_CONFIG = saved;
    }
  });

  test("a malformed pinned identity is a failure naming the key", () => {
    const { provider: plugin } = provider();
    expect(plugin.checkConfig({}, { stackIdentity: "x" }, URN).failures).toEqual([
      { property: "stackIdentity", reason: expect.stringMatching(/^expected 8 to 100 letters/) },
    ]);
  });

  test("a key rotated in the environment is said by DiffConfig; the same key in config or environment is not", () => {
    const { provider: plugin, said } = provider();
    process.env.MESSAGING_API_KEY = "sk_test_first";
    const olds = plugin.checkConfig({}, {}, URN).inputs;
    expect(JSON.stringify(olds)).not.toContain("sk_test_first");
    const sameInConfig = plugin.checkConfig(fromWire(olds), fromWire({ apiKey: secret("sk_test_first") }), URN).inputs;
    // The key set in config stays a secret in what the engine records.
    expect(sameInConfig.apiKey).toEqual(secret("sk_test_first"));
    said.length = 0;
    plugin.diffConfig(fromWire(olds), fromWire(sameInConfig));
    expect(said).toEqual([]);

    process.env.MESSAGING_API_KEY = "sk_test_rotated";
    const news = plugin.checkConfig(fromWire(olds), {}, URN).inputs;
    expect(plugin.diffConfig(fromWire(olds), fromWire(news))).toMatchObject({ changes: true, replaces: [] });
    expect(said).toEqual([expect.stringMatching(/the API key \(messaging:apiKey or MESSAGING_API_KEY\) changed/)]);
  });

  test("a resource moved to another provider (the engine hands the other's inputs) is no changed key; a changed pin is said", () => {
    const { provider: plugin, said } = provider();
    const staging = plugin.checkConfig({}, fromWire({ apiKey: secret("sk_staging") }), `${URN.replace("default_0_1_0", "staging")}`).inputs;
    const production = plugin.checkConfig(
      {},
      fromWire({ apiKey: secret("sk_production") }),
      `${URN.replace("default_0_1_0", "production")}`,
    ).inputs;
    said.length = 0;
    plugin.diffConfig(fromWire(staging), fromWire(production));
    expect(said).toEqual([]);

    plugin.diffConfig(
      fromWire({ ...staging, stackIdentity: "team-a-0123456789" }),
      fromWire({ ...staging, stackIdentity: "team-b-0123456789" }),
    );
    expect(said).toEqual([expect.stringMatching(/identity changes from team-a-0123456789 to team-b-0123456789/)]);
    // Pinned for the first time: the provider's id it had is not told to DiffConfig, so the way to keep it is said.
    said.length = 0;
    plugin.diffConfig(fromWire(staging), fromWire({ ...staging, stackIdentity: "team-a-0123456789" }));
    expect(said).toEqual([expect.stringMatching(/identity is now team-a-0123456789 .*pin the provider's id instead/s)]);
  });
});

test("a pinned identity starts every scope as the provider's id did: s2/<identity>/<project>/<parents>/<name>, frozen", async () => {
  const { idempotencyScopeOfUrn } = await import("../../provider/idempotency-scope");
  expect(idempotencyScopeOfUrn("urn:pulumi:dev::shop::messaging:index:MessageBatch::welcome", "team-a-0123456789")).toBe(
    "s2/team-a-0123456789/shop//welcome",
  );
});
