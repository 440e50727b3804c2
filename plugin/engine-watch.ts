import * as grpc from "@grpc/grpc-js";

export const ENGINE_CHECK_INTERVAL_MS = 1_000;
// One refusal could be a hiccup.
const REFUSALS_TO_STOP = 2;
const CHECK_DEADLINE_MS = 5_000;

/**
 * Calls `onGone` once the engine stops answering, so a plugin whose `pulumi` was killed does not finish a send nobody would
 * record. The check is Pulumi's own (`rpcutil.Healthcheck`). Only a refused connection counts as gone: a slow answer from a busy
 * engine is no reason to stop mid-send.
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
