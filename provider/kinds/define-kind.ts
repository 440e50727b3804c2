// A resource kind, defined once: the dynamic provider, the TypeScript classes and the plugin all read its KindDefinition.
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { sameService } from "../../client/service-location";
import { UnsupportedOperationError } from "../../errors";
import { canonicalJson } from "../../schemas/canonical-json";
import { checkKnownInputs } from "../check-inputs";
import { contextFor, flushed, type ProviderConfig, type ProviderContext } from "../context";
import { containsUnknown, IDEMPOTENCY_SCOPE, PROVIDER_KEY, RESOURCE_URN, ResourceInitFailedError, type Props } from "../protocol";
import { descriptionOf, replaceKeys, secretKeys } from "./field-meta";

/** For compile-time checks that a resource class, which spells its types out to keep zod from the root's declarations, matches its kind. */
export type ClassOutputs<R, S extends z.ZodObject> = {
  [K in keyof z.output<S>]: K extends keyof R ? (R[K] extends pulumi.Output<infer T> ? T : never) : never;
};
/** A class's `Args` with every `pulumi.Input` unwrapped, at any depth. */
export type PlainArgs<A> = { [K in keyof A]: Plain<A[K]> };
type Plain<T> =
  T extends pulumi.OutputInstance<infer U>
    ? Plain<U>
    : T extends Promise<infer U>
      ? Plain<U>
      : T extends ReadonlyArray<infer E>
        ? Plain<E>[]
        : T extends object
          ? { [K in keyof T]: Plain<T[K]> }
          : T;

/** Inputs as the engine passes them, hidden ones included. At preview a value may hold `UNKNOWN`; `create` and `update` never see one. */
export type KindInputs<I extends z.ZodObject> = z.output<I> & {
  readonly [IDEMPOTENCY_SCOPE]?: unknown;
  readonly [PROVIDER_KEY]?: unknown;
};

/**
 * What a kind implements. State arrives through `migrate`, so a method sees the current shape whatever release recorded it.
 * Only `create` is required. Defaults: `check` validates the known inputs, `diff` replaces on a `replaceOnChanges` input, `read`
 * keeps the state (the service has no retrieve), `update` refuses, `remove` does nothing (the service has no delete).
 */
export interface KindMethods<I extends z.ZodObject, State> {
  create(context: ProviderContext, inputs: KindInputs<I>): Promise<pulumi.dynamic.CreateResult>;
  check?(context: ProviderContext, olds: Props, news: Props): pulumi.dynamic.CheckResult | Promise<pulumi.dynamic.CheckResult>;
  diff?(context: ProviderContext, id: string, olds: State, news: KindInputs<I>): pulumi.dynamic.DiffResult;
  read?(context: ProviderContext, id: string, recorded: Props): pulumi.dynamic.ReadResult;
  update?(context: ProviderContext, id: string, olds: State, news: KindInputs<I>): Promise<pulumi.dynamic.UpdateResult>;
  /** Gets the state unmigrated: a delete failing on a shape it cannot read would block `pulumi destroy`. */
  remove?(context: ProviderContext, id: string, recorded: Props): void;
  /** An unfinished resource (a part-sent batch) is never moved to another service, which would redo there what the old one did. */
  unfinished?(state: State): boolean;
  /** Throws when the state cannot be read: never read as "changed", which would replace and act again. */
  migrate?(recorded: Props, id: string): State;
}

export interface ResourceImplementation {
  check(context: ProviderContext, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(context: ProviderContext, id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult;
  create(context: ProviderContext, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(context: ProviderContext, id: string, props: Props): pulumi.dynamic.ReadResult;
  update(context: ProviderContext, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  remove(context: ProviderContext, id: string, props: Props): void;
}

/** A serialized provider's methods: their signatures are part of the state format (see `provider/runtime.ts`). */
/**
 * A serialized provider's methods: their signatures are part of the state format (see `provider/runtime.ts`). `urn` is the
 * resource's, which the plugin is told; a serialized shell passes none, and the TypeScript class's hidden input gives it.
 */
export interface ResourceRuntime {
  check(config: ProviderConfig | undefined, olds: Props, news: Props, urn?: string): Promise<pulumi.dynamic.CheckResult>;
  diff(config: ProviderConfig | undefined, id: string, olds: Props, news: Props, urn?: string): Promise<pulumi.dynamic.DiffResult>;
  create(config: ProviderConfig | undefined, inputs: Props, urn?: string): Promise<pulumi.dynamic.CreateResult>;
  read(config: ProviderConfig | undefined, id: string, props?: Props, urn?: string): Promise<pulumi.dynamic.ReadResult>;
  update(config: ProviderConfig | undefined, id: string, olds: Props, news: Props, urn?: string): Promise<pulumi.dynamic.UpdateResult>;
  delete(config: ProviderConfig | undefined, id: string, props: Props, urn?: string): Promise<void>;
}

export interface KindSpec<N extends string, I extends z.ZodObject, S extends z.ZodObject, State> {
  /** The type name: the dynamic resource's `messaging:<name>`, the plugin's `messaging:index:<name>`. */
  name: N;
  description: string;
  /** Fields that replace the resource say `replaceOnChanges: true` in their `.meta()`. */
  inputs: I;
  state: S;
  methods: KindMethods<I, State>;
}

// zod's object type is invariant in its shape: a kind of any shape is `KindDefinition` only through `any`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface KindDefinition<N extends string = string, I extends z.ZodObject = any, S extends z.ZodObject = any> {
  readonly name: N;
  readonly description: string;
  readonly inputs: I;
  readonly state: S;
  readonly implementation: ResourceImplementation;
  readonly runtime: ResourceRuntime;
  readonly secretInputs: ReadonlyArray<keyof I["shape"] & string>;
  readonly secretOutputs: ReadonlyArray<keyof S["shape"] & string>;
  /** The outputs a resource class declares as `undefined` inputs. */
  readonly outputOnlyKeys: ReadonlyArray<keyof S["shape"] & string>;
  describe(key: string): string | undefined;
}

/** The resource's URN: the plugin's, else the TypeScript class's hidden input. */
const urnOf = (given: string | undefined, props: Props | undefined): string | undefined =>
  given ?? (typeof props?.[RESOURCE_URN] === "string" ? (props[RESOURCE_URN] as string) : undefined);

function adapt(implementation: ResourceImplementation): ResourceRuntime {
  // A call is answered once the lines it logged reached the engine: the engine may stop the provider right after.
  const run = async <T>(
    config: ProviderConfig | undefined,
    urn: string | undefined,
    act: (context: ProviderContext) => T,
  ): Promise<Awaited<T>> => {
    try {
      return await act(contextFor(config, urn));
    } finally {
      await flushed(config);
    }
  };
  return {
    check: (config, olds, news, urn) => run(config, urnOf(urn, news), (context) => implementation.check(context, olds ?? {}, news)),
    diff: (config, id, olds, news, urn) => run(config, urnOf(urn, news), (context) => implementation.diff(context, id, olds, news)),
    create: (config, inputs, urn) => run(config, urnOf(urn, inputs), (context) => implementation.create(context, inputs)),
    read: (config, id, props, urn) => run(config, urn, (context) => implementation.read(context, id, props ?? {})),
    update: (config, id, olds, news, urn) => run(config, urnOf(urn, news), (context) => implementation.update(context, id, olds, news)),
    delete: (config, id, props, urn) => run(config, urn, (context) => implementation.remove(context, id, props ?? {})),
  };
}

// Every kind records the service it lives in, so a change of service is a replacement said at preview, not "unchanged".
// Null in older state: where such a resource lives cannot be told, so it is never moved.
export const LivesIn = z.object({
  serviceUrl: z
    .string()
    .nullable()
    .default(null)
    .meta({
      description:
        "The service the resource was made in: the base URL's scheme, host, port and path (never its credentials). A base URL " +
        "of another service replaces the resource, making it anew there.",
    }),
});

export function defineKind<N extends string, I extends z.ZodObject, S extends z.ZodObject, State = z.output<S>>(
  spec: KindSpec<N, I, S, State>,
): KindDefinition<N, I, S> {
  const inputKeys = new Set(Object.keys(spec.inputs.shape));
  const implementation = implement(spec);
  const state = spec.state.extend(LivesIn.shape) as unknown as S;
  return {
    name: spec.name,
    description: spec.description,
    inputs: spec.inputs,
    state,
    implementation,
    runtime: adapt(implementation),
    secretInputs: secretKeys(spec.inputs) as Array<keyof I["shape"] & string>,
    secretOutputs: secretKeys(state) as Array<keyof S["shape"] & string>,
    outputOnlyKeys: Object.keys(state.shape).filter((key) => !inputKeys.has(key)) as Array<keyof S["shape"] & string>,
    describe: (key) => descriptionOf(spec.inputs, key) ?? descriptionOf(state, key),
  };
}

const labelOf = (name: string): string => name.replace(/(?<=[a-z])(?=[A-Z])/g, " ").toLowerCase();

function implement<N extends string, I extends z.ZodObject, S extends z.ZodObject, State>(
  spec: KindSpec<N, I, S, State>,
): ResourceImplementation {
  const { methods } = spec;
  const label = labelOf(spec.name);
  const replacing = replaceKeys(spec.inputs);
  const migrate = (id: string, recorded: Props): State => {
    if (methods.migrate) return methods.migrate(recorded, id);
    const parsed = spec.state.safeParse(recorded);
    if (parsed.success) return parsed.data as State;
    throw unknownShape(label, id, recorded);
  };
  const typed = (news: Props) => news as KindInputs<I>;
  return {
    check: async (context, olds, news) => {
      if (methods.check) return methods.check(context, olds, news);
      const checked = checkKnownInputs(spec.inputs, news);
      return checked.ok ? { inputs: news } : { inputs: news, failures: checked.failures };
    },
    diff: (context, id, olds, news) => {
      const state = migrate(id, olds);
      const result = methods.diff ? methods.diff(context, id, state, typed(news)) : replacedInputs(replacing, state as Props, news);
      if (!movedService(context, label, id, olds, methods.unfinished?.(state) === true)) return result;
      return { ...result, changes: true, replaces: [...(result.replaces ?? []), "serviceUrl"], deleteBeforeReplace: false };
    },
    create: async (context, inputs) => {
      const serviceUrl = context.serviceUrl() ?? null;
      try {
        const result = await methods.create(context, typed(inputs));
        return { ...result, outs: { ...result.outs, serviceUrl } };
      } catch (error) {
        // Half-made, it lives there all the same.
        if (error instanceof ResourceInitFailedError) error.properties.serviceUrl = serviceUrl;
        throw error;
      }
    },
    read: (context, id, props) => {
      if (methods.read) return methods.read(context, id, props);
      refuseImportRead(label, id, props);
      return { id, props };
    },
    update: async (context, id, olds, news) => {
      const state = migrate(id, olds);
      if (!methods.update) throw new UnsupportedOperationError(`The ${label} ${id} cannot be updated in place: changes replace it.`);
      // An update never moves a resource (diff replaces it then): it stays where it was made.
      const serviceUrl = typeof olds.serviceUrl === "string" ? olds.serviceUrl : (context.serviceUrl() ?? null);
      try {
        const result = await methods.update(context, id, state, typed(news));
        return { ...result, outs: { ...result.outs, serviceUrl } };
      } catch (error) {
        if (error instanceof ResourceInitFailedError) error.properties.serviceUrl = serviceUrl;
        throw error;
      }
    },
    remove: (context, id, props) => methods.remove?.(context, id, props),
  };
}

function replacedInputs(replacing: readonly string[], recorded: Props, news: Props): pulumi.dynamic.DiffResult {
  const replaces = replacing.filter(
    (key) => containsUnknown(news[key]) || canonicalJson(recorded[key] ?? null) !== canonicalJson(news[key] ?? null),
  );
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}

// Said, since a move replaces the resource. Unknown either way is no move.
function movedService(context: ProviderContext, label: string, id: string, olds: Props, unfinished: boolean): boolean {
  const [recorded, current] = [olds.serviceUrl, context.serviceUrl()];
  if (typeof recorded !== "string" || current === undefined || sameService(recorded, current)) return false;
  if (unfinished) {
    throw new UnsupportedOperationError(
      `The ${label} ${id} is unfinished at ${recorded}, and the base URL now reaches ${current}, another service: made anew ` +
        `there, it would do again what ${recorded} already did (a batch's confirmed messages sent twice). Nothing was sent. ` +
        `Set the base URL back and run \`pulumi up\` to finish it there, then move.`,
    );
  }
  context.warn(
    `warning: the ${label} ${id} lives at ${recorded}; the base URL (messaging:baseUrl or MESSAGING_BASE_URL) now reaches ` +
      `${current}, another service, so it is replaced: made anew there (an endpoint created, a batch's messages sent). ` +
      `What ${recorded} holds stays there: the service has no delete. To keep it, set the base URL back.`,
  );
  return true;
}

/** Refuses an import: the engine reads it with no recorded state, and the service has no retrieve operation to fill it in. */
export function refuseImportRead(label: string, id: string, recorded: Props, instead = ""): void {
  if (Object.keys(recorded).some((key) => key !== PROVIDER_KEY)) return;
  throw new UnsupportedOperationError(
    `Cannot import ${label} ${id}: the service has no operation to retrieve it.${instead ? ` ${instead}` : ""}`,
  );
}

/** Recorded state this version cannot read: an error that acts on nothing, never a replacement. */
export function unknownShape(label: string, id: string, recorded: Props): UnsupportedOperationError {
  const keys = Object.keys(recorded).filter((key) => key !== PROVIDER_KEY);
  return new UnsupportedOperationError(
    `The ${label} ${id}: its recorded state has a shape this version of pulumi-messaging does not know ` +
      `(keys: ${keys.join(", ") || "none"}), so it cannot tell what changed. Nothing was sent. Install the version of ` +
      "pulumi-messaging that wrote this state, or remove the resource from the state (`pulumi state delete <urn>`) and " +
      "run `pulumi up` to make it again on purpose.",
  );
}

export function kindsByName<const K extends readonly KindDefinition[]>(...kinds: K): { readonly [D in K[number] as D["name"]]: D } {
  const byName: Record<string, KindDefinition> = {};
  for (const kind of kinds) {
    if (Object.hasOwn(byName, kind.name)) throw new Error(`Two resource kinds are named ${kind.name}.`);
    byName[kind.name] = kind;
  }
  return byName as { readonly [D in K[number] as D["name"]]: D };
}
