import { isUtf8 } from "node:buffer";
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
    throw problem(415, "unsupported_media_type", `This route takes Content-Type ${expected}; the request sent ${actual ?? "none"}.`, {
      headers: { "Accept-Post": expected },
    });
  }
}

/**
 * Offset of the first byte that is not part of a well-formed UTF-8 sequence (no overlongs,
 * no surrogates, nothing above U+10FFFF), or -1. Linear; used only to say where a body fails.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min, cp] = [1, 0x80, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, min, cp] = [2, 0x800, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, min, cp] = [3, 0x10000, b & 0x07];
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * Decodes body bytes as UTF-8, refusing invalid sequences (400 `title`) rather than turning
 * them into U+FFFD, which would change the data silently. A leading byte-order mark is dropped.
 */
export function decodeUtf8(bytes: Buffer, title: "malformed_json" | "malformed_form"): string {
  if (!isUtf8(bytes)) {
    throw problem(400, title, `The request body is not valid UTF-8 (first invalid byte at offset ${firstInvalidUtf8(bytes)}).`);
  }
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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
