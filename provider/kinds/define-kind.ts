/**
 * A resource kind, defined once: {@link defineKind} takes its zod schemas and its runtime,
 * and everything else follows from them. The dynamic provider's `runtimes`
 * (`provider/runtime.ts`), the TypeScript class's props and secret outputs
 * (`provider/resource-options.ts` `resourceProps`, `withSecretOutputs`), and the plugin's
 * dispatch and package schema (`plugin/`) all read the {@link KindDefinition}.
 *
 * What a schema field says about itself goes in its zod `.meta()`: `description` (the text a
 * generated SDK shows) and `secret: true` (stored and shown as a Pulumi secret).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ConfigSource } from "../../client/settings";
import { contextFor, type ProviderContext } from "../context";

type Props = Record<string, unknown>;

/**
 * For a compile-time check that a resource class matches its kind (the classes spell their
 * types out, so the package root's declarations never reach zod's):
 * `Assert<SameType<ClassOutputs<Resource, typeof State>, z.output<typeof State>>>` and
 * `Assert<SameType<PlainArgs<Args>, z.input<typeof Inputs>>>` (`schemas/same-type.ts`).
 */
export type ClassOutputs<R, S extends z.ZodObject> = {
  [K in keyof z.output<S>]: K extends keyof R ? (R[K] extends pulumi.Output<infer T> ? T : never) : never;
};
/** A class's `Args` as plain values, what the inputs schema takes: every `pulumi.Input` unwrapped, at any depth. */
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

/** What each resource kind implements (`kinds/<kind>/runtime.ts`): every method gets the same context first. */
export interface ResourceImplementation {
  check(context: ProviderContext, olds: Props, news: Props): pulumi.dynamic.CheckResult;
  diff(context: ProviderContext, id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult;
  create(context: ProviderContext, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(context: ProviderContext, id: string, props: Props): pulumi.dynamic.ReadResult;
  update(context: ProviderContext, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  remove(context: ProviderContext, id: string, props: Props): void;
}

/**
 * Methods of a serialized provider, each taking the provider's `configure` config first.
 * Their signatures are part of the state format (see `provider/runtime.ts`): keep them.
 */
export interface ResourceRuntime {
  check(config: ConfigSource | undefined, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(config: ConfigSource | undefined, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(config: ConfigSource | undefined, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(config: ConfigSource | undefined, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult>;
  update(config: ConfigSource | undefined, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(config: ConfigSource | undefined, id: string, props: Props): Promise<void>;
}

/** What a kind's folder writes. */
export interface KindSpec<N extends string, I extends z.ZodObject, S extends z.ZodObject> {
  /** The type name: the dynamic resource's `messaging:<name>`, the plugin's `messaging:index:<name>`. */
  name: N;
  /** What the resource is and does, for the package schema (generated SDKs show it). */
  description: string;
  /** What a user sets (validated by the runtime's `check`). */
  inputs: I;
  /** What state records: every key is an output of the resource. */
  state: S;
  /** The six methods, on plain values. */
  runtime: ResourceImplementation;
}

/** A kind as every consumer reads it. */
// zod's object type is invariant in its shape: a kind of any shape is `KindDefinition` only through `any`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface KindDefinition<N extends string = string, I extends z.ZodObject = any, S extends z.ZodObject = any> {
  readonly name: N;
  readonly description: string;
  readonly inputs: I;
  readonly state: S;
  /** The runtime as the serialized provider calls it (config first). */
  readonly runtime: ResourceRuntime;
  /** Input keys whose schema says `secret: true`. */
  readonly secretInputs: ReadonlyArray<keyof I["shape"] & string>;
  /** State keys whose schema says `secret: true`. */
  readonly secretOutputs: ReadonlyArray<keyof S["shape"] & string>;
  /** State keys that are not inputs: the outputs a resource class declares as `undefined` inputs. */
  readonly outputOnlyKeys: ReadonlyArray<keyof S["shape"] & string>;
  /** A property's description, from its input's or else its state's `.meta()`. */
  describe(key: string): string | undefined;
}

/** The `.meta()` of a schema field (zod keeps it in its global registry). */
const metaOf = (schema: z.core.$ZodType): { description?: string; secret?: boolean } | undefined =>
  z.globalRegistry.get(schema) as { description?: string; secret?: boolean } | undefined;

const descriptionOf = (schema: z.ZodObject, key: string): string | undefined =>
  Object.hasOwn(schema.shape, key) ? metaOf(schema.shape[key])?.description : undefined;

const secretKeys = (schema: z.ZodObject): string[] =>
  Object.entries(schema.shape)
    .filter(([, field]) => metaOf(field)?.secret === true)
    .map(([key]) => key);

/** The implementation behind the config-first signatures: one context per configuration. */
function adapt(implementation: ResourceImplementation): ResourceRuntime {
  return {
    check: async (config, olds, news) => implementation.check(contextFor(config), olds ?? {}, news),
    diff: async (config, id, olds, news) => implementation.diff(contextFor(config), id, olds, news),
    create: async (config, inputs) => implementation.create(contextFor(config), inputs),
    read: async (config, id, props) => implementation.read(contextFor(config), id, props ?? {}),
    update: async (config, id, olds, news) => implementation.update(contextFor(config), id, olds, news),
    delete: async (config, id, props) => implementation.remove(contextFor(config), id, props ?? {}),
  };
}

/** One resource kind, from its schemas and runtime. */
export function defineKind<N extends string, I extends z.ZodObject, S extends z.ZodObject>(
  spec: KindSpec<N, I, S>,
): KindDefinition<N, I, S> {
  const inputKeys = new Set(Object.keys(spec.inputs.shape));
  return {
    name: spec.name,
    description: spec.description,
    inputs: spec.inputs,
    state: spec.state,
    runtime: adapt(spec.runtime),
    secretInputs: secretKeys(spec.inputs) as Array<keyof I["shape"] & string>,
    secretOutputs: secretKeys(spec.state) as Array<keyof S["shape"] & string>,
    outputOnlyKeys: Object.keys(spec.state.shape).filter((key) => !inputKeys.has(key)) as Array<keyof S["shape"] & string>,
    describe: (key) => descriptionOf(spec.inputs, key) ?? descriptionOf(spec.state, key),
  };
}

/** Kinds by name: `{ [kind.name]: kind }`, each name once. */
export function kindsByName<const K extends readonly KindDefinition[]>(...kinds: K): { readonly [D in K[number] as D["name"]]: D } {
  const byName: Record<string, KindDefinition> = {};
  for (const kind of kinds) {
    if (Object.hasOwn(byName, kind.name)) throw new Error(`Two resource kinds are named ${kind.name}.`);
    byName[kind.name] = kind;
  }
  return byName as { readonly [D in K[number] as D["name"]]: D };
}
