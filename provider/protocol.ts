// The dynamic-provider protocol as Pulumi's host speaks it; docs/real-engine.md names the tests that show each rule under the real CLI.

export type Props = Record<string, unknown>;

/** The property holding the serialized provider; the host adds it to outputs only on a successful create, read or update. */
export const PROVIDER_KEY = "__provider";

/** Hidden input set by `WebhookEndpoint`: the resource's place in the stack, scoping its create's idempotency key. */
export const IDEMPOTENCY_SCOPE = "idempotencyScope";

/** Hidden input set by the TypeScript classes: the resource's URN, which Pulumi's provider host does not hand a provider, for its lines. */
export const RESOURCE_URN = "resourceUrn";

/** During preview, inputs that depend on not-yet-created resources arrive as this string (`rpc.unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Thrown from `create` or `update` when the object exists but the operation did not finish: the engine records `properties` as
 * outputs and prints `reasons` (nothing else of this error reaches the user).
 * - `reasons` must be non-empty: only then does the engine force an update on the next `up`.
 * - `properties` must carry `__provider`: the host adds it only on success, and later reads and deletes deserialize it.
 * - Keep `properties` small: they travel in gRPC metadata.
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
