/**
 * What the stack's identity resource (`stack-identity.ts`) does beyond being made, called by
 * its serialized provider through `provider/runtime.ts` (part of the state format, as the
 * kinds' runtimes are). It records the fingerprint of the API key the stack was deployed with
 * (`client/identity-key.ts`: it reveals nothing of the key) and the pinned identity, if any
 * (`stack-identity-pin.ts`), so a changed key or identity is said before any resource of the
 * stack is created under it, and a new unpinned identity is said at preview.
 */
import type * as pulumi from "@pulumi/pulumi";
import { keyChangedWarning } from "../client/identity-key";
import type { Props } from "./protocol";
import { identityChangedWarning, newIdentityWarning } from "./stack-identity-pin";

type Warn = (message: string) => void;
const toStderr: Warn = (message) => process.stderr.write(`${message}\n`);

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The identity a state or inputs stand for: the pinned one, else the resource's own id. */
const identityOf = (props: Props, id: string | undefined): string | undefined => text(props.pinned) ?? id;

/** Check: a new identity (no recorded inputs) that nothing pins is said, at preview and before any create. */
export function check(olds: Props, news: Props, warn: Warn = toStderr): pulumi.dynamic.CheckResult {
  if (Object.keys(olds).length === 0 && text(news.pinned) === undefined) warn(newIdentityWarning("state"));
  return { inputs: news };
}

/**
 * A change (an update, which says so) when both runs had a key and they differ, or when the
 * identity the stack stands for changes (pinning another value than the id): the id never changes.
 */
export function diff(olds: Props, news: Props, id?: string): pulumi.dynamic.DiffResult {
  const [before, after] = [text(olds.keyFingerprint), text(news.keyFingerprint)];
  const keyChanged = before !== undefined && after !== undefined && before !== after;
  return { changes: keyChanged || identityOf(olds, id) !== identityOf(news, id) };
}

/** Records the key's fingerprint and the pinned identity, and warns of what changed: the dependent resources wait for this step. */
export function update(olds: Props, news: Props, warn: Warn = toStderr, id?: string) {
  const [before, after] = [text(olds.keyFingerprint), text(news.keyFingerprint)];
  if (before !== undefined && after !== undefined && before !== after) warn(keyChangedWarning());
  const [was, now] = [identityOf(olds, id), identityOf(news, id)];
  if (was !== undefined && now !== undefined && was !== now) warn(identityChangedWarning(was, now));
  return { outs: { keyFingerprint: after ?? null, pinned: text(news.pinned) ?? null } };
}
