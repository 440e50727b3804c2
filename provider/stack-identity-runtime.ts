// The stack identity resource's runtime (state format, as the kinds' runtimes): it records the API key's fingerprint (which reveals
// nothing of the key) and the pinned identity, so a change is said before any resource is created under it.
import type * as pulumi from "@pulumi/pulumi";
import { keyChangedWarning } from "../client/identity-key";
import type { Props } from "./protocol";
import { identityChangedWarning, newIdentityWarning } from "./stack-identity-pin";

type Warn = (message: string) => void;
const toStderr: Warn = (message) => process.stderr.write(`${message}\n`);

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

const identityOf = (props: Props, id: string | undefined): string | undefined => text(props.pinned) ?? id;

/** A new identity that nothing pins is said at preview, before any create. */
export function check(olds: Props, news: Props, warn: Warn = toStderr): pulumi.dynamic.CheckResult {
  if (Object.keys(olds).length === 0 && text(news.pinned) === undefined) warn(newIdentityWarning("state"));
  return { inputs: news };
}

/** An update (which says so) when the key or the pinned identity changed: the id never changes. */
export function diff(olds: Props, news: Props, id?: string): pulumi.dynamic.DiffResult {
  const [before, after] = [text(olds.keyFingerprint), text(news.keyFingerprint)];
  const keyChanged = before !== undefined && after !== undefined && before !== after;
  return { changes: keyChanged || identityOf(olds, id) !== identityOf(news, id) };
}

/** Warns of what changed: the dependent resources wait for this step. */
export function update(olds: Props, news: Props, warn: Warn = toStderr, id?: string) {
  const [before, after] = [text(olds.keyFingerprint), text(news.keyFingerprint)];
  if (before !== undefined && after !== undefined && before !== after) warn(keyChangedWarning());
  const [was, now] = [identityOf(olds, id), identityOf(news, id)];
  if (was !== undefined && now !== undefined && was !== now) warn(identityChangedWarning(was, now));
  return { outs: { keyFingerprint: after ?? null, pinned: text(news.pinned) ?? null } };
}
