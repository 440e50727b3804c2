import type { IncomingMessage } from "node:http";
import { JSON_CONTENT_TYPE } from "../schemas/http";
import { problem } from "./problem-response";

/** Largest request body the emulator accepts: 10 MiB. Larger bodies get 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** What reading a body produced: the bytes, or the fact that it was over the cap. */
export type BodyResult = { readonly kind: "ok"; readonly bytes: Buffer } | { readonly kind: "too_large" };

// Past this much discarded input the sender is not going to stop; drop the connection.
const DISCARD_LIMIT = 8 * MAX_BODY_BYTES;

/**
 * Reads a request body up to `maxBytes`. An over-cap body is read to its end and discarded
 * rather than cut off, so the client gets the 413 instead of a broken pipe.
 */
export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    const chunks: Buffer[] = [];
    let received = 0;
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (received > DISCARD_LIMIT) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? { kind: "too_large" } : { kind: "ok", bytes: Buffer.concat(chunks) }));
    req.on("error", reject);
  });
}

/** The media type of a `Content-Type` header, lower-cased and without parameters. */
function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const type = header.split(";")[0].trim().toLowerCase();
  return type === "" ? undefined : type;
}

/** Throws 415 `unsupported_media_type` unless the request's media type is `expected`. */
export function requireMediaType(req: IncomingMessage, expected: string): void {
  const actual = mediaType(req.headers["content-type"]);
  if (actual !== expected) {
    throw problem(
      415,
      "unsupported_media_type",
      `This route takes Content-Type ${expected}; the request sent ${actual ?? "none"}.`,
      { headers: { "Accept-Post": expected } },
    );
  }
}

/** Parses a JSON request body; throws 415 for another content type and 400 `malformed_json`. */
export function parseJsonBody(req: IncomingMessage, bytes: Buffer): unknown {
  requireMediaType(req, JSON_CONTENT_TYPE);
  const text = bytes.toString("utf8");
  if (text.trim() === "") throw problem(400, "malformed_json", "The request body is empty; expected a JSON object.");
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw problem(400, "malformed_json", `The request body is not valid JSON: ${reason}`);
  }
}
