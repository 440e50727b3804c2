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
