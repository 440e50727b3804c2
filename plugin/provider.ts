// Every resource call goes to the same kind runtime the dynamic provider calls, with values as the request reader read them (secrets
// unwrapped, `./struct-decoder.ts`); the answer's secrets are marked again on the way out.
import type { ProviderConfig } from "../provider/context";
import { STDERR_LOG, type EngineLog } from "../provider/engine-log";
import { UnsupportedOperationError } from "../errors";
import { IDEMPOTENCY_SCOPE, PROVIDER_KEY, UNKNOWN } from "../provider/protocol";
import { idempotencyScopeOfUrn } from "../provider/idempotency-scope";
import { kindOfToken, SERVED_KINDS, type KindDefinition } from "./kinds";
import { heldSecrets, markSecrets, secret } from "./property-values";
import { STACK_IDENTITY_KEY } from "./schema";
import { keyChangedWarning } from "../client/identity-key";
import { identityChangedWarning, identityPinnedWarning, newIdentityWarning } from "../provider/stack-identity-pin";
import {
  checkConfig,
  checkedConfig,
  configSource,
  diffConfig,
  keyFingerprintOf,
  pinnedIdentityOf,
  RECORDED,
  type ConfigFailure,
} from "./provider-config";
import type { Props } from "../provider/protocol";

export type CheckFailure = ConfigFailure;

export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** Answered as `ErrorResourceInitFailed`, as the dynamic host does for `ResourceInitFailedError`. */
export class InitFailure extends Error {
  constructor(
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(reasons.join("\n"));
  }
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

// urn:pulumi:<stack>::<project>::<parent$type>::<name>
function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

// A runtime's ResourceInitFailedError, recognised by shape (it may come from another copy of the module).
const isInitFailed = (error: unknown): error is { id: string; reasons: string[]; properties: Props } =>
  typeof error === "object" &&
  error !== null &&
  typeof (error as { id?: unknown }).id === "string" &&
  Array.isArray((error as { reasons?: unknown }).reasons) &&
  typeof (error as { properties?: unknown }).properties === "object";

// `__provider` is the dynamic host's key: a plugin's outputs never carry it.
function outputs(definition: KindDefinition, outs: Props, ...secretSources: Props[]): Props {
  const { [PROVIDER_KEY]: _provider, ...rest } = outs;
  return secretSources.reduce((marked, source) => markSecrets(marked, source, definition.secretOutputs), rest);
}

function sameEntries(a: Props, b: Props): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

export class MessagingProvider {
  private config: ProviderConfig | undefined;
  /** The pinned identity, else this provider's id (see `idempotency-scope.ts`). */
  private stackIdentity: string | undefined;

  constructor(
    private readonly kinds: readonly KindDefinition[] = SERVED_KINDS,
    private readonly log?: EngineLog,
  ) {}

  async settled(): Promise<void> {
    await this.log?.flush();
  }

  /** A new unpinned provider's id becomes the stack's identity now: said here, at preview, before any create. */
  checkConfig(olds: Props, news: Props, urn: string): { inputs: Props; failures: CheckFailure[] } {
    const failures = checkConfig(news);
    const inputs = checkedConfig(news, urn);
    if (Object.keys(olds).length === 0 && inputs[STACK_IDENTITY_KEY] === undefined && failures.length === 0) {
      this.warn(newIdentityWarning("provider"), urn);
    }
    // What came secret stays secret in the provider's inputs.
    return { inputs: markSecrets(inputs, news, []), failures };
  }

  /**
   * A changed API key or pinned identity is said here, before any resource is created under it. When a resource moves to another
   * provider olds are that provider's, and nothing is said: the stack's key did not change.
   */
  diffConfig(olds: Props, news: Props, id?: string): DiffAnswer {
    const changed = diffConfig(olds, news);
    const [wasUrn, urn] = [olds[RECORDED.providerUrn], news[RECORDED.providerUrn]];
    const anotherProvider = typeof wasUrn === "string" && typeof urn === "string" && wasUrn !== urn;
    if (!anotherProvider) {
      // Recorded by earlier releases only as the key itself, when it was in config.
      const before = text(olds[RECORDED.keyFingerprint]) ?? keyFingerprintOf(olds, {});
      const after = text(news[RECORDED.keyFingerprint]) ?? keyFingerprintOf(news, {});
      if (before !== undefined && after !== undefined && before !== after) this.warn(keyChangedWarning());
      const [pinnedBefore, pinnedNow] = [text(olds[STACK_IDENTITY_KEY]), text(news[STACK_IDENTITY_KEY])];
      const [was, now] = [pinnedBefore ?? id, pinnedNow ?? id];
      if (was !== undefined && now !== undefined && now !== UNKNOWN && was !== now) this.warn(identityChangedWarning(was, now));
      else if (was === undefined && pinnedNow !== undefined && pinnedNow !== UNKNOWN && Object.keys(olds).length > 0)
        this.warn(identityPinnedWarning(pinnedNow));
    }
    return { changes: changed.length > 0, replaces: [], deleteBeforeReplace: false };
  }

  configure(args: Props, variables: ReadonlyMap<string, string>, providerId?: string): void {
    this.stackIdentity = pinnedIdentityOf(args, variables) ?? (providerId || undefined);
    const log = this.log;
    this.config = { ...configSource(args, variables), ...(log ? { log } : {}) };
  }

  /** `asSent` when the inputs are the news exactly as sent, so the answer can be the request's own bytes. */
  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[]; asSent: boolean }> {
    const definition = this.kindOf(urn);
    const result = await definition.runtime.check(this.config, olds, news, urn);
    const failures = (result.failures ?? []).map(({ property, reason }) => ({ property, reason }));
    const given = result.inputs ?? news;
    if (!heldSecrets(news) && sameEntries(given, news) && !definition.secretInputs.some((key) => key in news)) {
      return { inputs: news, failures, asSent: true };
    }
    const checked = markSecrets(given, news, definition.secretInputs);
    // A hidden input check adds (a file's digest, `MESSAGES_FILE_READ`) is derived from content: kept secret in state.
    const hidden = (key: string) => !(key in news) && !Object.hasOwn(definition.inputs.shape, key);
    const inputs = Object.fromEntries(
      Object.entries(checked).map(([key, value]) => [key, hidden(key) && value !== null ? secret(value) : value]),
    );
    return { inputs, failures, asSent: false };
  }

  /** The runtime's own diff, so both routes replace on the same changes. */
  async diff(urn: string, id: string, olds: Props, news: Props): Promise<DiffAnswer> {
    const result = await this.kindOf(urn).runtime.diff(this.config, id, olds, news, urn);
    return { changes: result.changes === true, replaces: result.replaces ?? [], deleteBeforeReplace: result.deleteBeforeReplace === true };
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const definition = this.kindOf(urn);
    // Generated SDKs cannot set the hidden scope input: the URN gives it.
    const inputs = { ...properties, [IDEMPOTENCY_SCOPE]: idempotencyScopeOfUrn(urn, this.stackIdentity) };
    try {
      const result = await definition.runtime.create(this.config, inputs, urn);
      return { id: result.id, properties: outputs(definition, result.outs ?? {}, properties) };
    } catch (error) {
      throw this.initFailure(definition, error, properties);
    }
  }

  /** The inputs are answered as they came (`./requests.ts`). */
  async read(urn: string, id: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const definition = this.kindOf(urn);
    const result = await definition.runtime.read(this.config, id, properties, urn);
    return { id: result.id ?? id, properties: outputs(definition, result.props ?? {}, properties) };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<{ properties: Props }> {
    const definition = this.kindOf(urn);
    try {
      const inputs = { ...news, [IDEMPOTENCY_SCOPE]: idempotencyScopeOfUrn(urn, this.stackIdentity) };
      const result = await definition.runtime.update(this.config, id, olds, inputs, urn);
      return { properties: outputs(definition, result.outs ?? {}, olds, news) };
    } catch (error) {
      throw this.initFailure(definition, error, olds, news);
    }
  }

  async delete(urn: string, id: string, properties: Props): Promise<void> {
    await this.kindOf(urn).runtime.delete(this.config, id, properties, urn);
  }

  /** Under the provider resource `urn` (the engine shows it there), else the stack's. */
  private warn(message: string, urn?: string): void {
    (this.log ?? STDERR_LOG).warn(message, urn);
  }

  private kindOf(urn: string): KindDefinition {
    const type = typeOfUrn(urn);
    const definition = kindOfToken(type, this.kinds);
    if (!definition) throw new UnsupportedOperationError(`The messaging provider has no resource type ${JSON.stringify(type)} (${urn}).`);
    return definition;
  }

  private initFailure(definition: KindDefinition, error: unknown, ...secretSources: Props[]): unknown {
    if (!isInitFailed(error)) return error;
    return new InitFailure(error.id, outputs(definition, error.properties, ...secretSources), error.reasons);
  }
}
