import type { ServerResponse } from "node:http";
import { JSON_CONTENT_TYPE } from "../schemas/http";

/**
 * A complete, already-serialized HTTP answer. Kept as bytes-ready text so an idempotent
 * replay sends exactly what the first request received.
 */
export interface Reply {
  /** HTTP status code. */
  readonly status: number;
  /** Response headers (besides `X-Request-Id` and `Content-Length`, which are added when written). */
  readonly headers: Readonly<Record<string, string>>;
  /** Serialized body. */
  readonly body: string;
}

/** A JSON answer with `Content-Type: application/json; charset=utf-8`. */
export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": `${JSON_CONTENT_TYPE}; charset=utf-8`, ...headers }, body: JSON.stringify(value) };
}

/** Writes a reply. Headers set earlier on `res` (the request id) are kept. */
export function writeReply(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(reply.body, "utf8");
  res.writeHead(reply.status, { ...reply.headers, ...extraHeaders, "Content-Length": String(body.length) });
  res.end(body);
}
