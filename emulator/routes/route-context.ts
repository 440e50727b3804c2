import type { IncomingMessage } from "node:http";
import type { OperationName } from "../../schemas/operations";
import type { EmulatorOperationName } from "../operations";
import type { DeliveryQueue } from "../delivery";
import type { FaultInjector } from "../faults";
import type { Reply, StreamedReply } from "../http";
import type { EmulatorStore } from "../storage";

/** What a route handler gets: the request, its body bytes and the emulator's state. */
export interface RouteContext {
  /** The request (headers, method, URL). Its body has already been read into `body`. */
  readonly req: IncomingMessage;
  /** Raw body bytes (empty for bodiless requests). */
  readonly body: Buffer;
  /** The query string's parameters. */
  readonly query: URLSearchParams;
  /** Values of the path template's `{name}` segments. */
  readonly params: Readonly<Record<string, string>>;
  /** Recorded endpoints, batches, events and deliveries. */
  readonly store: EmulatorStore;
  /** Fault settings. */
  readonly faults: FaultInjector;
  /** Event delivery with retries. */
  readonly deliveries: DeliveryQueue;
}

/** Answers one request. Throws `ProblemError` to answer with a problem (the only way to reject). */
export type RouteHandler = (context: RouteContext) => Reply | StreamedReply | Promise<Reply | StreamedReply>;

/** Handlers of some of `OPERATIONS`' operations, by name: each file of `routes/` exports its own. */
export type OperationHandlers = { readonly [Name in OperationName]?: RouteHandler };

/** Handlers of some of `EMULATOR_OPERATIONS`' operations, by name: each `routes/emulator-*.ts` exports its own. */
export type EmulatorHandlers = { readonly [Name in EmulatorOperationName]?: RouteHandler };
