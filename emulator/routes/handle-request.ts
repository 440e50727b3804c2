import type { IncomingMessage, ServerResponse } from "node:http";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, REQUEST_ID_HEADER, VERSION_HEADER } from "../../schemas/http";
import {
  assertAuthenticated,
  MAX_BODY_BYTES,
  readBody,
  type BodyResult,
  IdempotencyStore,
  checkIdempotencyKey,
  keyInUseProblem,
  keyReusedProblem,
  requestFingerprint,
  assertHostAllowed,
  type HostAllowList,
  ProblemError,
  RETRY_AFTER_SECONDS,
  problem,
  problemReply,
  isStreamed,
  writeReply,
  writeStreamedReply,
  type Reply,
  type StreamedReply,
  assertVersionHeader,
  type MemoryGuard,
} from "../http";
import type { DeliveryQueue } from "../delivery";
import { type FaultInjector, faultStatus, type FaultKind } from "../faults";
import { randomId, type EmulatorStore } from "../storage";
import { isApiPath, matchRoute } from "./router";

/** Per-emulator state the pipeline works on. */
export interface EmulatorState {
  readonly apiKey: string;
  /** The names a request's `Host` header may carry. */
  readonly allowedHosts: HostAllowList;
  readonly store: EmulatorStore;
  readonly faults: FaultInjector;
  readonly idempotency: IdempotencyStore;
  readonly deliveries: DeliveryQueue;
  /** Says when a body must wait (503) so the process never runs out of memory. */
  readonly memory: MemoryGuard;
  /** Called once for every request to a `/v1` path, rejected or not. */
  countApiRequest(): void;
}

const MIB = 1024 * 1024;

/** Header naming the injected fault on a faulted answer, to tell it from a real one. */
export const FAULT_HEADER = "X-Emulator-Fault";

/** The path and query of a request. */
interface RequestTarget {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** Thrown to end a request by dropping its connection (injected faults). */
class DropConnection extends Error {}

/**
 * Reads the body when the memory guard has room for it, counting its bytes while the request
 * is handled: its declared size at once (so requests arriving together see each other), then
 * whatever arrives beyond it. 503 with `Retry-After` when there is no room, before reading or,
 * for a body larger than declared or of unknown size, as soon as it would go over (the rest is
 * drained unread).
 */
async function readBodyWithinMemory(
  req: IncomingMessage,
  memory: MemoryGuard,
  held: { bytes: number },
): Promise<Exclude<BodyResult, { kind: "no_room" }>> {
  const declared = Number(req.headers["content-length"]);
  const hasBody = declared > 0 || req.headers["transfer-encoding"] !== undefined;
  if (!hasBody) return (await readBody(req)) as Exclude<BodyResult, { kind: "no_room" }>;
  const reserved = Number.isFinite(declared) && declared <= MAX_BODY_BYTES ? declared : 0;
  const noRoom = (reason: string) =>
    problem(503, "service_unavailable", `Not now: ${reason}. Retry after ${RETRY_AFTER_SECONDS} s.`, {
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  const shortOfRoom = memory.shortOfRoom(reserved);
  if (shortOfRoom !== undefined) {
    req.resume();
    throw noRoom(shortOfRoom);
  }
  memory.hold(reserved);
  held.bytes += reserved;
  // `held.bytes` is what this request counts: its reservation, or what arrived when more did.
  let received = 0;
  const body = await readBody(req, MAX_BODY_BYTES, (bytes) => {
    received += bytes;
    const beyond = received - held.bytes;
    if (beyond <= 0) return true;
    if (!memory.hasRoomFor(beyond, held.bytes)) return false;
    held.bytes += beyond;
    memory.hold(beyond);
    return true;
  });
  if (body.kind === "no_room") throw noRoom(`the bodies in flight would go over the emulator's limit of ${memory.maxInFlightBytes} bytes`);
  return body;
}

/** Whether a body announced by `req` will be refused unread (over the size cap, or no room for it now). */
export function bodyWillBeRefused(req: IncomingMessage, memory: MemoryGuard): boolean {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return true;
  return memory.shortOfRoom(Number.isFinite(declared) ? declared : 0) !== undefined;
}

/**
 * Runs one request through the checks and its handler; every rejection is a thrown
 * `ProblemError` (or `DropConnection` for an injected reset). In order: Host (403) → memory (503) → body (413) →
 * authentication (401) → version header on /v1 (400) → route (404/405) → injected fault on
 * /v1 → idempotency on /v1 POSTs (replay, 422, 409) → handler → store the idempotent answer
 * → drop, for the "processed then dropped" fault.
 */
async function serve(
  req: IncomingMessage,
  state: EmulatorState,
  url: RequestTarget,
  held: { bytes: number },
): Promise<{ reply: Reply | StreamedReply; replayed?: boolean }> {
  const method = req.method ?? "GET";
  const path = url.pathname;
  const api = isApiPath(path);

  try {
    assertHostAllowed(req.headers.host, state.allowedHosts);
  } catch (refused) {
    req.resume();
    throw refused;
  }
  const body = await readBodyWithinMemory(req, state.memory, held);
  if (body.kind === "too_large") {
    // No `Connection: close`: Node would then destroy the socket with the body unread, and
    // the reset can reach the client before the 413 does. The rest of the body is drained.
    throw problem(413, "payload_too_large", `The request body is larger than the ${MAX_BODY_BYTES / MIB} MiB the emulator accepts.`);
  }
  assertAuthenticated(req.headers.authorization, state.apiKey);
  if (api) assertVersionHeader(req.headers[VERSION_HEADER]);

  const match = matchRoute(method, path);
  if (match.kind === "not_found") throw problem(404, "not_found", `No route ${method} ${path}.`);
  if (match.kind === "method_not_allowed") {
    const allow = match.allow.join(", ");
    throw problem(405, "method_not_allowed", `${path} does not support ${method}; allowed: ${allow}.`, { headers: { Allow: allow } });
  }

  const fault: FaultKind | undefined = api ? state.faults.next() : undefined;
  if (fault === "reset_before_processing") throw new DropConnection();
  const faultAnswer = fault === undefined ? undefined : faultStatus(fault);
  if (fault !== undefined && faultAnswer !== undefined) {
    throw problem(faultAnswer.status, faultAnswer.title, faultAnswer.detail, {
      headers: { ...faultAnswer.headers, [FAULT_HEADER]: fault },
    });
  }
  const dropAfter = fault === "drop_after_processing";

  let idempotencyKey: string | undefined;
  const keyHeader = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (api && method === "POST" && typeof keyHeader === "string") {
    const key = checkIdempotencyKey(keyHeader);
    const lookup = state.idempotency.begin(key, requestFingerprint(method, path, body.bytes));
    if (lookup.kind === "mismatch") throw keyReusedProblem();
    if (lookup.kind === "in_flight") throw keyInUseProblem();
    if (lookup.kind === "replay") {
      if (dropAfter) throw new DropConnection();
      return { reply: lookup.reply, replayed: true };
    }
    idempotencyKey = key;
  }

  let reply: Reply | StreamedReply;
  try {
    reply = await match.handler({
      req,
      body: body.bytes,
      query: url.searchParams,
      params: match.params,
      store: state.store,
      faults: state.faults,
      deliveries: state.deliveries,
    });
  } catch (error) {
    if (idempotencyKey !== undefined) state.idempotency.release(idempotencyKey);
    // A rejection is processing too: under "processed then dropped" the client never sees it.
    if (dropAfter) throw new DropConnection();
    throw error;
  }
  if (idempotencyKey !== undefined) {
    if (!isStreamed(reply) && reply.status >= 200 && reply.status < 300) state.idempotency.complete(idempotencyKey, reply);
    else state.idempotency.release(idempotencyKey);
  }
  if (dropAfter) throw new DropConnection();
  return { reply };
}

/**
 * Answers one request (see `serve` for the order of checks). Never rejects: a thrown
 * `ProblemError` is answered as such, anything else becomes a generic 500, and an injected
 * reset destroys the socket.
 */
export async function handleRequest(req: IncomingMessage, res: ServerResponse, state: EmulatorState): Promise<void> {
  res.setHeader(REQUEST_ID_HEADER, randomId("req_", 8));
  // The path as sent (no normalization); the query parsed on its own.
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  const url = { pathname: q === -1 ? target : target.slice(0, q), searchParams: new URLSearchParams(q === -1 ? "" : target.slice(q + 1)) };
  if (isApiPath(url.pathname)) state.countApiRequest();
  // Body bytes this request holds, counted by the memory guard until it is answered.
  const held = { bytes: 0 };
  try {
    const { reply, replayed } = await serve(req, state, url, held);
    if (isStreamed(reply)) await writeStreamedReply(res, reply);
    else writeReply(res, reply, replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: "true" } : {});
  } catch (error) {
    // A reset is what a crashed server or a broken proxy looks like to the client.
    if (error instanceof DropConnection) return void req.socket.destroy();
    if (error instanceof ProblemError) return writeReply(res, error.reply);
    // Detail stays generic: an internal message could carry request content.
    if (!res.headersSent) return writeReply(res, problemReply(500, "internal_error", "The emulator failed to handle the request."));
    res.destroy();
  } finally {
    state.memory.release(held.bytes);
  }
}
