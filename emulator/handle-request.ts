import type { IncomingMessage, ServerResponse } from "node:http";
import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER, VERSION_HEADER } from "../schemas/http";
import { checkAuthentication } from "./auth";
import { MAX_BODY_BYTES, readBody } from "./body";
import type { FaultInjector } from "./fault-injector";
import { faultStatus, type FaultKind } from "./faults";
import {
  IdempotencyStore, REPLAYED_HEADER, checkIdempotencyKey, keyInUseProblem, keyReusedProblem, requestFingerprint,
} from "./idempotency";
import { randomId } from "./ids";
import { ProblemError, problemReply } from "./problem-response";
import { writeReply, type Reply } from "./reply";
import { isApiPath, matchRoute } from "./router";
import type { EmulatorStore } from "./store";
import { checkVersionHeader } from "./version-header";

/** Per-emulator state the pipeline works on. */
export interface EmulatorState {
  readonly apiKey: string;
  readonly store: EmulatorStore;
  readonly faults: FaultInjector;
  readonly idempotency: IdempotencyStore;
  /** Aborted when the emulator closes. */
  readonly closing: AbortSignal;
  /** Called once for every request to a `/v1` path, rejected or not. */
  countApiRequest(): void;
}

const MIB = 1024 * 1024;

/** Header naming the injected fault on a faulted answer, to tell it from a real one. */
export const FAULT_HEADER = "X-Emulator-Fault";

// A reset is what a crashed server or a broken proxy looks like to the client.
function dropConnection(req: IncomingMessage): void {
  req.socket.destroy();
}

/**
 * One request, in order: request id → body (413) → authentication (401) → version header on
 * /v1 (400) → route (404/405) → injected fault on /v1 → idempotency on /v1 POSTs (replay,
 * 422, 409) → handler → store the idempotent answer → respond (or drop, for the
 * "processed then dropped" fault). Never rejects: anything unexpected becomes a 500.
 */
export async function handleRequest(req: IncomingMessage, res: ServerResponse, state: EmulatorState): Promise<void> {
  res.setHeader(REQUEST_ID_HEADER, randomId("req_", 8));
  const method = req.method ?? "GET";
  const path = (req.url ?? "/").split("?")[0];
  const api = isApiPath(path);
  if (api) state.countApiRequest();

  let idempotencyKey: string | undefined;
  let fault: FaultKind | undefined;
  try {
    const body = await readBody(req);
    if (body.kind === "too_large") {
      // Close after answering: the client may still think it has bytes to send.
      return writeReply(
        res,
        problemReply(
          413,
          "payload_too_large",
          `The request body is larger than the ${MAX_BODY_BYTES / MIB} MiB the emulator accepts.`,
        ),
        { Connection: "close" },
      );
    }

    const unauthorized = checkAuthentication(req.headers.authorization, state.apiKey);
    if (unauthorized) return writeReply(res, unauthorized);

    if (api) {
      const badVersion = checkVersionHeader(req.headers[VERSION_HEADER] as string | undefined);
      if (badVersion) return writeReply(res, badVersion);
    }

    const match = matchRoute(method, path);
    if (match.kind === "not_found") {
      return writeReply(res, problemReply(404, "not_found", `No route ${method} ${path}.`));
    }
    if (match.kind === "method_not_allowed") {
      const allow = match.allow.join(", ");
      return writeReply(
        res,
        problemReply(405, "method_not_allowed", `${path} does not support ${method}; allowed: ${allow}.`, {
          headers: { Allow: allow },
        }),
      );
    }

    fault = match.scope === "api" ? state.faults.next() : undefined;
    if (fault === "reset_before_processing") return dropConnection(req);
    const faultAnswer = fault === undefined ? undefined : faultStatus(fault);
    if (fault !== undefined && faultAnswer !== undefined) {
      return writeReply(
        res,
        problemReply(faultAnswer.status, faultAnswer.title, faultAnswer.detail, {
          headers: { ...faultAnswer.headers, [FAULT_HEADER]: fault },
        }),
      );
    }

    const keyHeader = req.headers[IDEMPOTENCY_KEY_HEADER];
    if (match.scope === "api" && method === "POST" && typeof keyHeader === "string") {
      const key = checkIdempotencyKey(keyHeader);
      const lookup = state.idempotency.begin(key, requestFingerprint(method, path, body.bytes));
      if (lookup.kind === "mismatch") throw keyReusedProblem();
      if (lookup.kind === "in_flight") throw keyInUseProblem();
      if (lookup.kind === "replay") {
        if (fault === "drop_after_processing") return dropConnection(req);
        return writeReply(res, lookup.reply, { [REPLAYED_HEADER]: "true" });
      }
      idempotencyKey = key;
    }

    const reply: Reply = await match.handler({
      req,
      body: body.bytes,
      store: state.store,
      faults: state.faults,
      closing: state.closing,
    });
    if (idempotencyKey !== undefined) {
      if (reply.status >= 200 && reply.status < 300) state.idempotency.complete(idempotencyKey, reply);
      else state.idempotency.release(idempotencyKey);
      idempotencyKey = undefined;
    }
    if (fault === "drop_after_processing") return dropConnection(req);
    return writeReply(res, reply);
  } catch (error) {
    if (idempotencyKey !== undefined) state.idempotency.release(idempotencyKey);
    // A rejection is processing too: under "processed then dropped" the client never sees it.
    if (fault === "drop_after_processing") return dropConnection(req);
    if (error instanceof ProblemError) return writeReply(res, error.reply);
    // Detail stays generic: an internal message could carry request content.
    return writeReply(res, problemReply(500, "internal_error", "The emulator failed to handle the request."));
  }
}
