/** Program-side rules shared by the resource classes: what they refuse, scope and warn about. */
import * as pulumi from "@pulumi/pulumi";
import { SETTINGS } from "../client/settings";
import { UnsupportedOperationError, ValidationError } from "../errors";
import { addFieldError, formatPath, type FieldErrors } from "../schemas/field-errors";
import type { KindDefinition } from "./kinds/define-kind";
import { stackIdentity } from "./stack-identity";

/**
 * Pulumi's `import` never reaches a dynamic provider: the engine reads the resource with
 * its id and no recorded state, and the provider host fails before any provider code runs
 * (sdk/nodejs/cmd/dynamic-provider). So the option is refused here, with what to do instead.
 */
export function refuseImport(kind: string, name: string, opts: pulumi.CustomResourceOptions | undefined, instead: string): void {
  if (opts?.import === undefined) return;
  throw new UnsupportedOperationError(
    `${kind} "${name}" cannot be imported (import: ${JSON.stringify(opts.import)}): the messaging service has no operation ` +
      `to retrieve it, so Pulumi cannot read its settings. Remove the \`import\` option and ${instead}.`,
  );
}

/**
 * The resource's identity in the stack: the stack's identity (`stack-identity.ts`), then its
 * place in the stack, `<project>/<stack>/<name>` for a top-level resource, the parent's URN
 * and the name under a parent (two same-named resources under different components never
 * share a scope). Part of the idempotency keys of a create (an endpoint's, a batch's calls):
 * its form must never change. The plugin derives the same form from its provider's id and
 * the URN (`plugin/idempotency-scope.ts`).
 */
export function resourceScope(name: string, opts: pulumi.CustomResourceOptions | undefined): pulumi.Input<string> {
  const place = `${pulumi.getProject()}/${pulumi.getStack()}/${name}`;
  const parent = opts?.parent;
  return pulumi
    .all([stackIdentity(), parent ? parent.urn : place])
    .apply(([identity, where]) => `${identity}/${parent ? `${where}/${name}` : where}`);
}

const API_KEY_CONFIG = SETTINGS.apiKey.config;
let apiKeyChecked = false;

/**
 * Pulumi registers a dynamic provider with the whole stack config as its inputs, so
 * `messaging:apiKey` is saved in the stack's state (entry
 * `pulumi:providers:pulumi-nodejs::default`): encrypted only when set with `--secret`.
 * The provider itself cannot tell (the host unwraps secrets before `configure`); the program
 * can, so the first resource warns once.
 */
export function warnIfApiKeyNotSecret(): void {
  if (apiKeyChecked) return;
  apiKeyChecked = true;
  // `isConfigSecret` is the SDK's own reading of PULUMI_CONFIG_SECRET_KEYS (marked internal, so feature-tested).
  const isConfigSecret = (pulumi.runtime as unknown as { isConfigSecret?: (key: string) => boolean }).isConfigSecret;
  if (typeof isConfigSecret !== "function" || pulumi.runtime.getConfig(API_KEY_CONFIG) === undefined) return;
  if (!isConfigSecret(API_KEY_CONFIG)) {
    void pulumi.log.warn(
      `${API_KEY_CONFIG} is set in plain text. Pulumi saves the whole stack config in the stack's state (resource ` +
        "pulumi:providers:pulumi-nodejs::default), so the API key is stored unencrypted there and in Pulumi.<stack>.yaml. " +
        `Set it again with \`pulumi config set --secret ${API_KEY_CONFIG} <key>\`.`,
    );
  }
}

/**
 * What a resource class registers, from its kind's definition: every input as `args` has it
 * (a secret input wrapped, so it is encrypted in state whatever the program passed), every
 * output-only key as `undefined` (so the resource has it as an output), then `hidden`.
 */
export function resourceProps(kind: KindDefinition, args: object, hidden: pulumi.Inputs = {}): pulumi.Inputs {
  const given = args as Record<string, pulumi.Input<unknown> | undefined>;
  const secret = new Set<string>(kind.secretInputs);
  const inputs = Object.keys(kind.inputs.shape).map((key) => {
    const value = given[key];
    return [key, value !== undefined && secret.has(key) ? pulumi.secret(value) : value];
  });
  const outputs = kind.outputOnlyKeys.map((key) => [key, undefined]);
  return { ...Object.fromEntries([...inputs, ...outputs]), ...hidden };
}

/** `opts` with the kind's secret outputs added to `additionalSecretOutputs`. */
export function withSecretOutputs(kind: KindDefinition, opts: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...kind.secretOutputs] };
}

const PROTO_KEY_REASON =
  "a `__proto__` key is refused: Pulumi copies inputs by assignment, which would set a prototype instead of a member, " +
  "and the value would be sent altered. Rename the key.";
const FOREIGN_PROTOTYPE_REASON =
  'an object with a prototype of its own is refused (`"__proto__": {…}` in an object literal sets one): its ' +
  "prototype's members would be sent as its own. Write them as ordinary members.";

/** Where `value` holds a `__proto__` key or an object with a prototype of its own, by field path. */
function protoHazards(value: unknown, path: PropertyKey[], errors: FieldErrors, seen: Set<object>): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  // What Pulumi resolves later (and the resources an input may name) is not plain data.
  if (pulumi.Output.isInstance(value) || pulumi.Resource.isInstance(value) || typeof (value as { then?: unknown }).then === "function")
    return;
  seen.add(value);
  if (Array.isArray(value)) {
    value.forEach((item, index) => protoHazards(item, [...path, index], errors, seen));
    return;
  }
  // A prototype with members of its own (not a class's, whose methods are not enumerable) is a literal's `"__proto__": {…}`.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null && Object.keys(prototype as object).length > 0) {
    addFieldError(errors, formatPath(path), FOREIGN_PROTOTYPE_REASON);
  }
  for (const key of Object.keys(value)) {
    if (key === "__proto__") addFieldError(errors, formatPath([...path, key]), PROTO_KEY_REASON);
    else protoHazards((value as Record<string, unknown>)[key], [...path, key], errors, seen);
  }
}

function refuseProtoHazards(kind: string, name: string, value: unknown, path: PropertyKey[]): void {
  const errors: FieldErrors = {};
  protoHazards(value, path, errors, new Set());
  if (Object.keys(errors).length > 0) throw new ValidationError(`inputs of ${kind} "${name}"`, errors);
}

/**
 * `args` with every `__proto__` key refused, before Pulumi serializes them (the plugin's
 * Check refuses them for the other languages). Only values known now are checked: a value
 * inside an Output (`pulumi.secret(messages)`) is not, since an error thrown in an `apply`
 * left the Automation API's `up` hanging under the real CLI.
 */
export function refuseProtoKeys<A extends object>(kind: string, name: string, args: A): A {
  refuseProtoHazards(kind, name, args, []);
  return args;
}
