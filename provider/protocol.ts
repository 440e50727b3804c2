/**
 * The dynamic-provider protocol as Pulumi's host (`@pulumi/pulumi/cmd/dynamic-provider`)
 * speaks it, in one place: the names it reserves, the preview sentinel, and the error
 * envelope it turns into "created but failed to initialise". docs/real-engine.md names the
 * tests that show, under the real CLI, the engine rules each of these follows.
 */

/** A property map as the engine passes it: inputs, state, or a provider's config. */
export type Props = Record<string, unknown>;

/** The property holding the serialized provider; the host adds it to outputs only on a successful create, read or update. */
export const PROVIDER_KEY = "__provider";

/** Hidden input set by `WebhookEndpoint`: the resource's place in the stack, scoping its create's idempotency key. */
export const IDEMPOTENCY_SCOPE = "idempotencyScope";

/** During preview, inputs that depend on not-yet-created resources arrive as this string (`rpc.unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Thrown from `create` or `update` when the object exists in the service but the operation
 * did not finish. The host sends `ErrorResourceInitFailed{id, properties, reasons}`; the
 * engine then records the resource with `properties` as its outputs and `reasons` as its
 * init errors, and prints the reasons (nothing else of this error reaches the user).
 *
 * - `reasons` must be non-empty: the engine forces an update on the next `up` only then,
 *   and prints "resource init failed" when there are none.
 * - `properties` must carry `__provider`: the host adds it only on success, and every later
 *   read, delete or replacement of this state deserializes the provider from it.
 * - Keep `properties` small: they travel in gRPC metadata.
 *
 * A protocol envelope for the host, not one of the package's user errors.
 */
export class ResourceInitFailedError extends Error {
  readonly properties: Record<string, unknown>;

  constructor(
    readonly id: string,
    readonly reasons: [string, ...string[]],
    properties: Record<string, unknown>,
    inputs: Record<string, unknown>,
  ) {
    super(reasons.join("\n"));
    this.properties = { ...properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
  }
}
