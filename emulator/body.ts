import type { IncomingMessage } from "node:http";
import { addFieldError, findJsonHazards, jsonHazardField, type FieldErrors } from "../schemas";
import { JSON_CONTENT_TYPE } from "../schemas/http";
import { problem, validationProblem } from "./problem-response";

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

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Decodes body bytes as UTF-8, refusing invalid sequences (400 `title`) rather than turning
 * them into U+FFFD, which would change the data silently. A leading byte-order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array, title: "malformed_json" | "malformed_form"): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    let offset = 0;
    // Find the first bad byte for the message: decode ever longer prefixes (only on failure).
    for (let end = 1; end <= bytes.length; end++) {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end), { stream: true });
      } catch {
        offset = end - 1;
        break;
      }
    }
    throw problem(400, title, `The request body is not valid UTF-8 (first invalid byte at offset ${offset}).`);
  }
}

/**
 * Parses a JSON request body; throws 415 for another content type, 400 `malformed_json` for
 * invalid UTF-8 or JSON, and 400 `validation_failed` naming each place that JSON cannot carry
 * unchanged or that is refused (`findJsonHazards`: a `__proto__` key, nesting deeper than
 * `MAX_JSON_DEPTH`, a number out of range such as `1e400`).
 */
export function parseJsonBody(req: IncomingMessage, bytes: Buffer): unknown {
  requireMediaType(req, JSON_CONTENT_TYPE);
  const text = decodeUtf8(bytes, "malformed_json");
  if (text.trim() === "") throw problem(400, "malformed_json", "The request body is empty; expected a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw problem(400, "malformed_json", `The request body is not valid JSON: ${reason}`);
  }
  const hazards = findJsonHazards(value);
  if (hazards.length > 0) {
    const errors: FieldErrors = {};
    for (const hazard of hazards) addFieldError(errors, jsonHazardField(hazard), hazard.message);
    throw validationProblem(errors);
  }
  return value;
}
