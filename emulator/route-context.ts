import type { IncomingMessage } from "node:http";
import type { EmulatorStore } from "./store";
import type { FaultInjector } from "./fault-injector";
import type { Reply } from "./reply";

/** What a route handler gets: the request, its body bytes and the emulator's state. */
export interface RouteContext {
  /** The request (headers, method, URL). Its body has already been read into `body`. */
  readonly req: IncomingMessage;
  /** Raw body bytes (empty for bodiless requests). */
  readonly body: Buffer;
  /** Recorded endpoints, batches and deliveries. */
  readonly store: EmulatorStore;
  /** Fault settings. */
  readonly faults: FaultInjector;
  /** Aborted when the emulator closes, to cut outgoing deliveries short. */
  readonly closing: AbortSignal;
}

/** Answers one request. Throws `ProblemError` to answer with a problem. */
export type RouteHandler = (context: RouteContext) => Reply | Promise<Reply>;
