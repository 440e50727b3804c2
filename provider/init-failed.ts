/**
 * Thrown from `create` when the object exists in the service but the create did not finish.
 * Pulumi's dynamic-provider host turns an error carrying `id` and `properties` into
 * "created but failed to initialise": the resource stays in state (nothing is orphaned) and
 * the next `pulumi up` calls `update` to retry. `properties` travel in gRPC metadata, so
 * keep them small. A protocol envelope for the host, not one of the package's user errors.
 */
export class ResourceInitFailedError extends Error {
  constructor(message: string, readonly id: string, readonly properties: Record<string, unknown>) {
    super(message);
  }
}
