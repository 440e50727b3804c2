/**
 * Golden values of the MessageBatch digests. They are part of the state format: if one of
 * these fails, the change would make every recorded batch look changed and send it again.
 * Do not update the expected values; add a new digest version instead.
 */
import { canonical, digestMatches, legacyLocaleDigest, messagesDigest } from "../../provider/messages-digest";

const plainText = [{ tos: ["+254700000001"], body: "Your code is 482913" }];
// A template model with mixed-case keys, a leading underscore and nested values, in an order
// that neither sort keeps.
const templated = [
  {
    tos: ["+254700000001", "+254700000002"],
    template: {
      id: "tmpl_reminder",
      model: { firstName: "Amina", Zeta: 1, alpha: { Beta: [1, "two", { b: null, A: true }], aa: "x" }, _id: 3 },
    },
  },
  { body: "Hello", tos: ["+15555550100"] },
];

describe("v1 (written): SHA-256 hex of the JSON with keys sorted by code unit", () => {
  test.each([
    ["a body", plainText, "1d7d0648a9aa4f9b82d7adbb6909b3942e0521338aa555e1be3b845ff7ef0201"],
    ["a template with mixed-case, nested keys", templated, "a90e89baae49dac8d6029baadd557c7b998679fb8fe9fa2b510152083b063742"],
  ])("%s", (_case, messages, digest) => {
    expect(messagesDigest(messages)).toBe(digest);
  });

  test("integer-like keys come first in numeric order, whatever the sort (how JavaScript orders an object's keys)", () => {
    const codes = [{ tos: ["+254700000003"], template: { id: "tmpl_codes", model: { b: 1, "10": "ten", "2": "two", A: 3 } } }];
    expect(canonical(codes)).toBe('[{"template":{"id":"tmpl_codes","model":{"2":"two","10":"ten","A":3,"b":1}},"tos":["+254700000003"]}]');
    expect(messagesDigest(codes)).toBe("42e2103f510464f594814ace38d8f7d90c278429d566c50f9dbde37edd6cfd24");
    expect(legacyLocaleDigest(codes)).toBe(messagesDigest(codes));
  });

  test("keys sort by code unit: upper case before `_` before lower case, at every depth", () => {
    expect(canonical(templated[0])).toBe(
      '{"template":{"id":"tmpl_reminder","model":{"Zeta":1,"_id":3,"alpha":{"Beta":[1,"two",{"A":true,"b":null}],"aa":"x"},"firstName":"Amina"}},"tos":["+254700000001","+254700000002"]}',
    );
  });

  test("the order keys were written in does not matter; array order does", () => {
    const reordered = [
      {
        template: {
          model: { _id: 3, alpha: { aa: "x", Beta: [1, "two", { A: true, b: null }] }, Zeta: 1, firstName: "Amina" },
          id: "tmpl_reminder",
        },
        tos: templated[0].tos,
      },
      templated[1],
    ];
    expect(messagesDigest(reordered)).toBe(messagesDigest(templated));
    expect(messagesDigest([...templated].reverse())).not.toBe(messagesDigest(templated));
  });
});

describe("legacy (read only): the locale-ordered digest one earlier release wrote", () => {
  test("pinned for the same inputs; it differs from v1 only where the two orders differ", () => {
    expect(legacyLocaleDigest(plainText)).toBe("1d7d0648a9aa4f9b82d7adbb6909b3942e0521338aa555e1be3b845ff7ef0201");
    expect(legacyLocaleDigest(templated)).toBe("20ad83aca929257282e0724407b4de6fa139266dc8793bbecb0388f37512355a");
  });

  test("digestMatches accepts both forms of the same messages, and neither of other messages", () => {
    expect(digestMatches(messagesDigest(templated), templated)).toBe(true);
    expect(digestMatches(legacyLocaleDigest(templated), templated)).toBe(true);
    expect(digestMatches(messagesDigest(templated), plainText)).toBe(false);
    expect(digestMatches(legacyLocaleDigest(templated), [templated[0]])).toBe(false);
  });

  test("a legacy digest written under any locale is matched under this one: the recorded order is not the machine's", () => {
    // Keys each of these locales orders its own way: Czech puts "ch" after "h", Danish "aa" after "z", Lithuanian "y" with "i".
    const model = { hotel: 1, channel: 2, Aalborg: 3, zulu: 4, yard: 5, ice: 6, Hotel: 7, _id: 8 };
    const messages = [{ tos: ["+254700000001"], template: { id: "tmpl", model } }];
    const written = ["cs", "da", "lt", "en", "tr", "sv", "et"].map((locale) =>
      legacyLocaleDigest(messages, new Intl.Collator(locale).compare),
    );
    expect(new Set(written).size).toBeGreaterThan(2);
    for (const digest of written) expect(digestMatches(digest, messages)).toBe(true);
    // Still none of other messages.
    for (const digest of written) expect(digestMatches(digest, [{ ...messages[0], tos: ["+254700000002"] }])).toBe(false);
  });
});
