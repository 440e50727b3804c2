/** The stack identity's update: a changed API key fingerprint is said once, and recorded; the id never changes. */
import * as identity from "../../provider/stack-identity-runtime";

test("a changed key fingerprint is an update that warns and records the new one; the same, or none known, is no change", () => {
  expect(identity.diff({ keyFingerprint: "a" }, { keyFingerprint: "a" })).toEqual({ changes: false });
  expect(identity.diff({ keyFingerprint: null }, { keyFingerprint: "b" })).toEqual({ changes: false });
  expect(identity.diff({ keyFingerprint: "a" }, { keyFingerprint: null })).toEqual({ changes: false });
  expect(identity.diff({ keyFingerprint: "a" }, { keyFingerprint: "b" })).toEqual({ changes: true });
  expect(identity.diff({ keyFingerprint: "a" }, { keyFingerprint: "b" }).replaces).toBeUndefined();

  const warnings: string[] = [];
  expect(identity.update({ keyFingerprint: "a" }, { keyFingerprint: "b" }, (message) => warnings.push(message))).toEqual({
    outs: { keyFingerprint: "b", pinned: null },
  });
  expect(warnings).toEqual([expect.stringMatching(/^warning: the API key .* changed since this stack's last deployment/)]);
});

test("a new identity that nothing pins is said by check; a pinned or recorded one is not", () => {
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  identity.check({}, { keyFingerprint: "a", pinned: null }, warn);
  expect(warnings).toEqual([
    expect.stringMatching(/^warning: this stack's identity is being made now: messaging:stackIdentity is not set/),
  ]);
  identity.check({}, { keyFingerprint: "a", pinned: "team-a-0123456789" }, warn);
  identity.check({ keyFingerprint: "a" }, { keyFingerprint: "a", pinned: null }, warn);
  expect(warnings).toHaveLength(1);
});

test("pinning the identity the stack has changes nothing; pinning another, or unpinning, is an update that warns", () => {
  expect(identity.diff({ keyFingerprint: "a" }, { keyFingerprint: "a", pinned: "id-1234567" }, "id-1234567")).toEqual({ changes: false });
  expect(identity.diff({ keyFingerprint: "a" }, { keyFingerprint: "a", pinned: "other-12345" }, "id-1234567")).toEqual({ changes: true });
  expect(identity.diff({ pinned: "other-12345" }, { pinned: null }, "id-1234567")).toEqual({ changes: true });

  const warnings: string[] = [];
  expect(identity.update({ pinned: null }, { pinned: "other-12345" }, (message) => warnings.push(message), "id-1234567")).toEqual({
    outs: { keyFingerprint: null, pinned: "other-12345" },
  });
  expect(warnings).toEqual([
    expect.stringMatching(/^warning: this stack's identity changes from id-1234567 to other-12345 .*messaging:stackIdentity id-1234567/s),
  ]);
});
