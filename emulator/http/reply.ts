import type { ServerResponse } from "node:http";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { JSON_CONTENT_TYPE } from "../../schemas/http";

/** Already serialized, so an idempotent replay sends exactly what the first request received. */
export interface Reply {
  readonly status: number;
  /** `X-Request-Id` and `Content-Length` are added when written. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * For listings that may be large: each piece is produced only when the previous one has been
 * handed to the socket, and the event loop is given back between pieces.
 */
export interface StreamedReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly pieces: Iterable<string>;
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": `${JSON_CONTENT_TYPE}; charset=utf-8`, ...headers }, body: JSON.stringify(value) };
}

export function jsonArrayStream<T>(
  items: Iterable<T>,
  serialize: (item: T) => string,
  headers: Record<string, string> = {},
): StreamedReply {
  function* pieces(): Generator<string> {
    let first = true;
    yield "[";
    for (const item of items) {
      yield `${first ? "" : ","}${serialize(item)}`;
      first = false;
    }
    yield "]";
  }
  return { status: 200, headers: { "Content-Type": `${JSON_CONTENT_TYPE}; charset=utf-8`, ...headers }, pieces: pieces() };
}

export function isStreamed(reply: Reply | StreamedReply): reply is StreamedReply {
  return "pieces" in reply;
}

/** Headers set earlier on `res` (the request id) are kept. */
export function writeReply(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(reply.status, { ...reply.headers, ...extraHeaders, "Content-Length": String(Buffer.byteLength(reply.body, "utf8")) });
  // A string goes out in one write with the head; a Buffer would be a second chunk (writev).
  res.end(reply.body, "utf8");
}

// Pieces are gathered up to this size before a write, and the loop is given back after each write.
const WRITE_BYTES = 64 * 1024;

/** Stops quietly if the client goes away. */
export async function writeStreamedReply(res: ServerResponse, reply: StreamedReply): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(reply.status, { ...reply.headers });
  let buffer = "";
  for (const piece of reply.pieces) {
    buffer += piece;
    if (buffer.length < WRITE_BYTES) continue;
    if (res.destroyed) return;
    const more = res.write(buffer);
    buffer = "";
    if (more) await yieldToLoop();
    else await drained(res);
  }
  if (!res.destroyed) res.end(buffer);
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
