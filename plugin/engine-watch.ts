import * as grpc from "@grpc/grpc-js";

/** How often the engine is asked whether it is still there, in milliseconds. */
export const ENGINE_CHECK_INTERVAL_MS = 1_000;
// Answers refused this many times in a row mean the engine is gone: one refusal could be a hiccup.
const REFUSALS_TO_STOP = 2;
const CHECK_DEADLINE_MS = 5_000;

/**
 * Calls `onGone` once the engine at `address` stops answering: the plugin's one link to the
 * run. Without it, a plugin whose `pulumi` was killed lived on and finished a send nobody
 * would record (3,000 messages after the kill). Each check is the gRPC health check that
 * Pulumi's own plugins make (`rpcutil.Healthcheck`), which the engine's host server serves;
 * UNIMPLEMENTED counts as alive, as there. Only a refused connection (UNAVAILABLE) counts as
 * gone: a slow answer from a busy engine is not a reason to stop mid-send. The timer does not
 * keep the process alive.
 * @returns a function that stops watching
 */
export function watchEngine(address: string, onGone: () => void, intervalMs = ENGINE_CHECK_INTERVAL_MS): () => void {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  let refusals = 0;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      () => Buffer.alloc(0), // HealthCheckRequest{service: ""} encodes to no bytes
      (bytes: Buffer) => bytes,
      Buffer.alloc(0),
      { deadline: Date.now() + CHECK_DEADLINE_MS },
      (error) => {
        refusals = error?.code === grpc.status.UNAVAILABLE ? refusals + 1 : 0;
        if (refusals >= REFUSALS_TO_STOP) {
          client.close();
          onGone();
          return;
        }
        if (timer) timer.refresh();
      },
    );
  };
  timer = setTimeout(check, intervalMs).unref();
  return () => {
    clearTimeout(timer);
    timer = undefined;
    client.close();
  };
}
