/**
 * What the plugin does for each provider call, on plain property maps (the gRPC service
 * around it only converts messages). Every resource call goes to its kind's runtime
 * (`provider/kinds/`), the one the dynamic provider calls through `provider/runtime.ts`
 * `runtimes`, with secrets revealed on the way in and marked again on the way out.
 */
import type { ProviderConfig } from "../provider/context";
import type { EngineLog } from "./engine-log";
import { UnsupportedOperationError } from "../errors";
import { IDEMPOTENCY_SCOPE, PROVIDER_KEY, UNKNOWN } from "../provider/protocol";
import { idempotencyScopeOf } from "./idempotency-scope";
import { kindOfToken, SERVED_KINDS, type KindDefinition } from "./kinds";
import { markSecrets, reveal, revealProps } from "./property-values";
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
import { STACK_IDENTITY_KEY } from "./schema";
import type { Props } from "../provider/protocol";

/** A check failure on one property (`property` is a dotted path). */
export type CheckFailure = ConfigFailure;

/** What Diff answers. */
export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/**
 * Thrown by Create or Update when the object exists but the operation did not finish: the
 * service answers with `ErrorResourceInitFailed{id, properties, reasons}`, as the dynamic
 * host does for the runtimes' `ResourceInitFailedError`.
 */
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

/** The resource type of a URN: `urn:pulumi:<stack>::<project>::<parent$type>::<name>`. */
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

/** Outputs as the plugin returns them: no `__provider` (the dynamic host's key), secrets marked. */
function outputs(definition: KindDefinition, outs: Props, ...secretSources: Props[]): Props {
  const { [PROVIDER_KEY]: _provider, ...rest } = outs;
  return secretSources.reduce((marked, source) => markSecrets(marked, source, definition.secretOutputs), rest);
}

/** The plugin's provider: one per process, configured once by the engine. */
export class MessagingProvider {
  private config: ProviderConfig | undefined;
  /** The stack's identity (see `idempotency-scope.ts`): the pinned one, else the id of the provider resource the engine configured this plugin as. */
  private stackIdentity: string | undefined;

  /**
   * @param kinds the kinds served: every kind of the registry (`provider/kinds/registry.ts`).
   * @param log where a line for the user goes (the engine's `Log`); without one, stderr.
   */
  constructor(
    private readonly kinds: readonly KindDefinition[] = SERVED_KINDS,
    private readonly log?: EngineLog,
  ) {}

  /** Resolves once every line logged so far reached the engine. */
  async settled(): Promise<void> {
    await this.log?.flush();
  }

  /**
   * CheckConfig: the news with the API key marked secret and what DiffConfig compares recorded,
   * plus one failure per bad setting. A provider with no recorded inputs is new: unless the
   * stack pins its identity, its id becomes the stack's identity now, which is said here, at
   * preview and before any create.
   */
  checkConfig(olds: Props, news: Props, urn: string): { inputs: Props; failures: CheckFailure[] } {
    const failures = checkConfig(news);
    if (Object.keys(olds).length === 0 && reveal(news[STACK_IDENTITY_KEY]) === undefined && failures.length === 0) {
      this.warn(newIdentityWarning("provider"));
    }
    return { inputs: checkedConfig(news, urn), failures };
  }

  /**
   * DiffConfig: a changed setting is a change, never a replacement. A changed API key (from
   * config or the environment) or pinned identity is said here, at preview and before any
   * resource is created under it. The engine also asks when a resource moves to another
   * provider (`step_generator.go` `providerChanged`): olds are then the other provider's, and
   * nothing is said, since the stack's key did not change; the resource's own Diff replaces it
   * if the other provider reaches another service.
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
      const [pinnedBefore, pinnedNow] = [text(reveal(olds[STACK_IDENTITY_KEY])), text(reveal(news[STACK_IDENTITY_KEY]))];
      const [was, now] = [pinnedBefore ?? id, pinnedNow ?? id];
      if (was !== undefined && now !== undefined && now !== UNKNOWN && was !== now) this.warn(identityChangedWarning(was, now));
      else if (was === undefined && pinnedNow !== undefined && pinnedNow !== UNKNOWN && Object.keys(olds).length > 0)
        this.warn(identityPinnedWarning(pinnedNow));
    }
    return { changes: changed.length > 0, replaces: [], deleteBeforeReplace: false };
  }

  /** Configure: keeps the settings for every later call (one client per configuration), and the stack's identity. */
  configure(args: Props, variables: ReadonlyMap<string, string>, providerId?: string): void {
    this.stackIdentity = pinnedIdentityOf(args, variables) ?? (providerId || undefined);
    const log = this.log;
    this.config = { ...configSource(args, variables), ...(log ? { warn: (message: string) => log.warn(message) } : {}) };
  }

  /** Check: the runtime's validation; the checked inputs keep their secrets (and `adopt` is one). */
  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const definition = this.kindOf(urn);
    const result = await definition.runtime.check(this.config, revealProps(olds), revealProps(news));
    const inputs = markSecrets(result.inputs ?? revealProps(news), news, definition.secretInputs);
    return { inputs, failures: (result.failures ?? []).map(({ property, reason }) => ({ property, reason })) };
  }

  /** Diff: the runtime's, so both routes replace on the same changes. */
  async diff(urn: string, id: string, olds: Props, news: Props): Promise<DiffAnswer> {
    const result = await this.kindOf(urn).runtime.diff(this.config, id, revealProps(olds), revealProps(news));
    return { changes: result.changes === true, replaces: result.replaces ?? [], deleteBeforeReplace: result.deleteBeforeReplace === true };
  }

  /** Create: the runtime's, scoped by the URN; secret outputs marked. */
  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const definition = this.kindOf(urn);
    // Generated SDKs cannot set the hidden scope input: the URN gives it.
    const inputs = { ...revealProps(properties), [IDEMPOTENCY_SCOPE]: idempotencyScopeOf(urn, this.stackIdentity) };
    try {
      const result = await definition.runtime.create(this.config, inputs);
      return { id: result.id, properties: outputs(definition, result.outs ?? {}, properties) };
    } catch (error) {
      throw this.initFailure(definition, error, properties);
    }
  }

  /** Read (refresh, import): the runtime's, which keeps the recorded state and refuses an import. */
  async read(urn: string, id: string, properties: Props, inputs: Props): Promise<{ id: string; properties: Props; inputs: Props }> {
    const definition = this.kindOf(urn);
    const result = await definition.runtime.read(this.config, id, revealProps(properties));
    return { id: result.id ?? id, properties: outputs(definition, result.props ?? {}, properties), inputs };
  }

  /** Update: the runtime's (finishing a part-sent batch, correcting an adopted secret). */
  async update(urn: string, id: string, olds: Props, news: Props): Promise<{ properties: Props }> {
    const definition = this.kindOf(urn);
    try {
      const result = await definition.runtime.update(this.config, id, revealProps(olds), revealProps(news));
      return { properties: outputs(definition, result.outs ?? {}, olds, news) };
    } catch (error) {
      throw this.initFailure(definition, error, olds, news);
    }
  }

  /** Delete: the runtime's, which never calls the service and says what stays. */
  async delete(urn: string, id: string, properties: Props): Promise<void> {
    await this.kindOf(urn).runtime.delete(this.config, id, revealProps(properties));
  }

  private warn(message: string): void {
    (this.log?.warn ?? ((line: string) => process.stderr.write(`${line}\n`)))(message);
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
