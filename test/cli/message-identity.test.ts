import { createHash } from "node:crypto";
import { CallKey, messageId } from "../../cli/message-identity";
import { canonicalJson } from "../../schemas/canonical-json";

/**
 * Golden values: journals on users' disks and keys the service remembers were made with
 * these algorithms, so a refactor that changes one output would send messages again. If one
 * of these fails, the change is not a refactor: add a new version beside the old one.
 */
describe("message identity (version m1, frozen)", () => {
  const hello = { tos: ["+254712345678"], body: "Hello" };
  const template = {
    template: { id: "tpl_1", model: { Zeta: 1, alpha: "a", Beta: { y: [1, "x"], X: null } } },
    tos: ["+254700000001", "+254700000002"],
  };

  it("canonical JSON: keys in code-unit order at every depth (upper case before lower), arrays kept in order", () => {
    expect(canonicalJson(template)).toBe(
      '{"template":{"id":"tpl_1","model":{"Beta":{"X":null,"y":[1,"x"]},"Zeta":1,"alpha":"a"}},"tos":["+254700000001","+254700000002"]}',
    );
  });

  it("pins the identity of a body message and of a template message with mixed-case model keys", () => {
    expect(messageId(hello)).toBe("2c43c610f7d351002d57e726918d85d9");
    expect(messageId(template)).toBe("a44d2d15f5b7abbc8477c50996b8caa1");
    // What the identity is, spelled out: 32 hex digits of SHA-256 over a tag and the canonical JSON.
    const expected = createHash("sha256")
      .update(`pulumi-messaging message m1\n${canonicalJson(hello)}`)
      .digest("hex")
      .slice(0, 32);
    expect(messageId(hello)).toBe(expected);
  });

  it("does not depend on key order or white space; does depend on every value", () => {
    expect(messageId({ body: "Hello", tos: ["+254712345678"] })).toBe(messageId(hello));
    expect(messageId(JSON.parse('{ "body" : "Hello",\t"tos": [ "+254712345678" ] }'))).toBe(messageId(hello));
    expect(messageId({ ...hello, body: "Hello." })).not.toBe(messageId(hello));
    expect(messageId({ ...hello, tos: ["+254712345679"] })).not.toBe(messageId(hello));
  });
});

describe("call keys (version k2, frozen)", () => {
  it("pins the key and source digest of a call, texts holding newlines included", () => {
    const call = new CallKey({ prefix: "ms2", stream: "transactional", sendId: "" });
    call.add(0, '{"tos":["+254712345678"],"body":"Hello"}');
    call.add(1, "line with\nnewline");
    expect(call.finish()).toEqual({
      key: "ms2-c82fe10cb553d8ce5a9e44aa656f82a9",
      count: 2,
      sourceDigest: "0fa398e507beb9a622892080050b48b9587328dfa5f61d061ec3779cf7fbcb10",
    });
  });

  it("a --resend's id, another position or another prefix gives another key", () => {
    const key = (prefix: string, sendId: string, ordinal: number) => {
      const call = new CallKey({ prefix, stream: "transactional", sendId });
      call.add(ordinal, '{"tos":["+254712345678"],"body":"Hello"}');
      return call.finish().key;
    };
    expect(key("ms2", "abc123", 0)).toBe("ms2-4e35fbc574fb5ad62a0832df24852616");
    expect(new Set([key("ms2", "", 0), key("ms2", "abc123", 0), key("ms2", "", 1), key("ci", "", 0)]).size).toBe(4);
    expect(key("ci", "", 0)).toMatch(/^ci-[0-9a-f]{32}$/);
  });
});
