import * as pulumi from "@pulumi/pulumi";
import { SETTINGS } from "../client/settings";
import { UnsupportedOperationError, ValidationError } from "../errors";
import { addFieldError, formatPath, type FieldErrors } from "../schemas/field-errors";
import type { KindDefinition } from "./kinds/define-kind";
import { stackIdentity } from "./stack-identity";
import { idempotencyScope, typeChainOfUrn } from "./idempotency-scope";

// Pulumi's `import` never reaches a dynamic provider (the host fails before any provider code runs), so it is refused here.
export function refuseImport(kind: string, name: string, opts: pulumi.CustomResourceOptions | undefined, instead: string): void {
  if (opts?.import === undefined) return;
  throw new UnsupportedOperationError(
    `${kind} "${name}" cannot be imported (import: ${JSON.stringify(opts.import)}): the messaging service has no operation ` +
      `to retrieve it, so Pulumi cannot read its settings. Remove the \`import\` option and ${instead}.`,
  );
}

/** The resource's idempotency scope (`./idempotency-scope.ts`): the stack's identity and its place, as the plugin derives it from the URN. */
export function resourceScope(name: string, opts: pulumi.CustomResourceOptions | undefined): pulumi.Input<string> {
  const parent = opts?.parent;
  return pulumi
    .all([stackIdentity(), parent ? parent.urn : ""])
    .apply(([identity, parentUrn]) => idempotencyScope(identity, pulumi.getProject(), parentUrn ? typeChainOfUrn(parentUrn) : "", name));
}

const API_KEY_CONFIG = SETTINGS.apiKey.config;
let apiKeyChecked = false;

// The dynamic provider's inputs are the whole stack config, so a plain API key is saved unencrypted in state. Only the program
// can tell (the host unwraps secrets before `configure`), so the first resource warns once.
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

/** What a resource class registers: secret inputs wrapped (encrypted in state whatever was passed), output-only keys as `undefined`. */
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

export function withSecretOutputs(kind: KindDefinition, opts: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...kind.secretOutputs] };
}

const PROTO_KEY_REASON =
  "a `__proto__` key is refused: Pulumi copies inputs by assignment, which would set a prototype instead of a member, " +
  "and the value would be sent altered. Rename the key.";
const FOREIGN_PROTOTYPE_REASON =
  'an object with a prototype of its own is refused (`"__proto__": {…}` in an object literal sets one): its ' +
  "prototype's members would be sent as its own. Write them as ordinary members.";

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
 * Refuses `__proto__` keys before Pulumi serializes `args` (the plugin's Check does so for other languages). Values inside an
 * Output are not checked: an error thrown in an `apply` leaves the Automation API's `up` hanging under the real CLI.
 */
export function refuseProtoKeys<A extends object>(kind: string, name: string, args: A): A {
  refuseProtoHazards(kind, name, args, []);
  return args;
}
