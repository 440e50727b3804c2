/**
 * What the stack's identity resource (`stack-identity.ts`) does beyond being made, called by
 * its serialized provider through `provider/runtime.ts` (part of the state format, as the
 * kinds' runtimes are). It records the fingerprint of the API key the stack was deployed with
 * (`client/identity-key.ts`: it reveals nothing of the key), so a changed key is said before
 * any resource of the stack is created under it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { keyChangedWarning } from "../client/identity-key";
import type { Props } from "./protocol";

const fingerprintOf = (props: Props): string | undefined => (typeof props.keyFingerprint === "string" ? props.keyFingerprint : undefined);

/** A change (an update, which says so) only when both runs had a key, and they differ: the identity's id never changes. */
export function diff(olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const before = fingerprintOf(olds);
  const after = fingerprintOf(news);
  return { changes: before !== undefined && after !== undefined && before !== after };
}

/** Records the new key's fingerprint, and warns: the dependent resources wait for this step. */
export function update(olds: Props, news: Props, warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`)) {
  if (diff(olds, news).changes) warn(keyChangedWarning());
  return { outs: { keyFingerprint: fingerprintOf(news) ?? null } };
}
