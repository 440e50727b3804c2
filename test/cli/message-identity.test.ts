import { createHash, createHmac, hkdfSync } from "node:crypto";
import { IdentityKey } from "../../client/identity-key";
import { CallKey, messageIdentity } from "../../message-file/identity";
import { SendJournal } from "../../cli/commands/send/journal";
import { canonicalJson } from "../../schemas/canonical-json";

/**
 * Golden values: journals on users' disks and keys the service remembers were made with
 * these algorithms, so a refactor that changes one output would send messages again. If one
 * of these fails, the change is not a refactor: add a new version beside the old one.
 */
const key = IdentityKey.fromApiKey("sk_test_golden");
const hello = { tos: ["+254712345678"], body: "Hello" };
const template = {
  template: { id: "tpl_1", model: { Zeta: 1, alpha: "a", Beta: { y: [1, "x"], X: null } } },
  tos: ["+254700000001", "+254700000002"],
};

describe("the identity key (version 2, frozen)", () => {
  it("is HKDF-SHA256 of the API key; an identity is HMAC-SHA256 under it of a label, a newline and the text", () => {
    const derived = Buffer.from(hkdfSync("sha256", "sk_test_golden", "", "pulumi-messaging identity v2", 32));
    const expected = createHmac("sha256", derived).update("label\ntext").digest("hex").slice(0, 32);
    expect(key.digest("label", "text")).toBe(expected);
    expect(key.fingerprint).toBe("b77070a3dbe2296bbe1d3600b22e4df8");
  });

  it("never shows the key: not in JSON, not in util.inspect", () => {
    const derived = Buffer.from(hkdfSync("sha256", "sk_test_golden", "", "pulumi-messaging identity v2", 32)).toString("hex");
    expect(JSON.stringify(key)).not.toContain(derived);
    expect(require("node:util").inspect(key, { showHidden: true, depth: 5 })).not.toMatch(/sk_test_golden|[0-9a-f]{64}/);
  });
});

describe("message identity", () => {
  it("canonical JSON: keys in code-unit order at every depth (upper case before lower), arrays kept in order", () => {
    expect(canonicalJson(template)).toBe(
      '{"template":{"id":"tpl_1","model":{"Beta":{"X":null,"y":[1,"x"]},"Zeta":1,"alpha":"a"}},"tos":["+254700000001","+254700000002"]}',
    );
  });

  it("m2 (written): pinned, keyed by the API key", () => {
    const m2 = messageIdentity("m2", key);
    expect(m2(hello)).toBe("e5b373e352c16a6c345ece97573340f3");
    expect(m2(template)).toBe("009077172bf6dc8d3a89a16e75bd9d1b");
    expect(m2(hello)).toBe(key.digest("pulumi-messaging message m2", canonicalJson(hello)));
    expect(messageIdentity("m2", IdentityKey.fromApiKey("sk_test_rotated"))(hello)).not.toBe(m2(hello));
  });

  it("m1 (read in journals of earlier releases): pinned, whatever the key", () => {
    const m1 = messageIdentity("m1", key);
    expect(m1(hello)).toBe("2c43c610f7d351002d57e726918d85d9");
    expect(m1(template)).toBe("a44d2d15f5b7abbc8477c50996b8caa1");
    const expected = createHash("sha256")
      .update(`pulumi-messaging message m1\n${canonicalJson(hello)}`)
      .digest("hex")
      .slice(0, 32);
    expect(m1(hello)).toBe(expected);
    expect(messageIdentity("m1", IdentityKey.fromApiKey("sk_test_rotated"))(hello)).toBe(m1(hello));
  });

  it.each(["m1", "m2"] as const)("%s does not depend on key order or white space; does depend on every value", (version) => {
    const messageId = messageIdentity(version, key);
    expect(messageId({ body: "Hello", tos: ["+254712345678"] })).toBe(messageId(hello));
    expect(messageId(JSON.parse('{ "body" : "Hello",\t"tos": [ "+254712345678" ] }'))).toBe(messageId(hello));
    expect(messageId({ ...hello, body: "Hello." })).not.toBe(messageId(hello));
    expect(messageId({ ...hello, tos: ["+254712345679"] })).not.toBe(messageId(hello));
  });
});

describe("call keys (version k3, frozen)", () => {
  it("pins the key and source digest of a call, texts holding newlines included", () => {
    const call = new CallKey({ key, prefix: "ms3", stream: "transactional", sendId: "" });
    call.add(0, '{"tos":["+254712345678"],"body":"Hello"}');
    call.add(1, "line with\nnewline");
    expect(call.finish()).toEqual({
      key: "ms3-bef983096fa6d0dcbd7989b00be80a58",
      count: 2,
      sourceDigest: "0fa398e507beb9a622892080050b48b9587328dfa5f61d061ec3779cf7fbcb10",
    });
  });

  it("a --resend's id, another position, another prefix or another API key gives another key", () => {
    const callKey = (prefix: string, sendId: string, ordinal: number, under = key) => {
      const call = new CallKey({ key: under, prefix, stream: "transactional", sendId });
      call.add(ordinal, '{"tos":["+254712345678"],"body":"Hello"}');
      return call.finish().key;
    };
    expect(callKey("ms3", "abc123", 0)).toBe("ms3-ae34e1265903fd7c31af7b00aae41521");
    const keys = [
      callKey("ms3", "", 0),
      callKey("ms3", "abc123", 0),
      callKey("ms3", "", 1),
      callKey("ci", "", 0),
      callKey("ms3", "", 0, IdentityKey.fromApiKey("sk_test_rotated")),
    ];
    expect(new Set(keys.map((k) => k.slice(k.indexOf("-")))).size).toBe(4);
    expect(new Set(keys).size).toBe(5);
    expect(callKey("ci", "", 0)).toMatch(/^ci-[0-9a-f]{32}$/);
  });
});

describe("a send's journal directory (frozen)", () => {
  it("is named by the file, the service, the stream and the send id: another name would not find an earlier run's journal", () => {
    const scope = { file: "/home/ci/messages.ndjson", baseUrl: "https://api.example.com", stream: "transactional", sendId: "" };
    expect(SendJournal.directoryOf("/state", scope)).toBe("/state/send-5965778d3dc601b6f4fd23ec34d00fc5");
    expect(SendJournal.directoryOf("/state", { ...scope, sendId: "abc123" })).toBe("/state/send-045368da929e5b21056c0a95fc24f5c4");
  });
});
