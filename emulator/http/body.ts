import type { IncomingMessage } from "node:http";
import { addFieldError, decodeUtf8Text, jsonHazardField, parseStrictJson, wideEncoding, type FieldErrors } from "../../schemas";
import type { StrictJsonOptions } from "../../schemas/strict-json";
import { JSON_CONTENT_TYPE, MAX_REQUEST_BODY_BYTES } from "../../schemas/http";
import { problem, validationProblem } from "./problem-response";

export { firstInvalidUtf8 } from "../../schemas/utf8-text";

/** Larger bodies get 413. */
export const MAX_BODY_BYTES = MAX_REQUEST_BODY_BYTES;

export type BodyResult = { readonly kind: "ok"; readonly bytes: Buffer } | { readonly kind: "too_large" } | { readonly kind: "no_room" };

/**
 * How long the rest of an over-cap body is drained after the 413 went out. Closing a socket
 * with unread input makes the kernel send a reset, which can destroy the 413 before it is read.
 */
export const OVERSIZED_DRAIN_MS = 30_000;

/**
 * A body over the cap resolves `too_large` at once and the rest is discarded, so the caller
 * can answer 413 while the client is still sending.
 * @param onBytes memory accounting; answering false stops the read with `no_room`
 */
export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES, onBytes?: (bytes: number) => boolean): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const discard = (kind: "too_large" | "no_room" = "too_large") => {
      req.removeAllListeners("data");
      req.on("data", () => undefined);
      req.on("error", () => undefined);
      const timer = setTimeout(() => req.socket.destroy(), OVERSIZED_DRAIN_MS);
      timer.unref();
      req.once("end", () => clearTimeout(timer));
      req.socket.once("close", () => clearTimeout(timer));
      resolve({ kind });
    };
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) return discard();
    const chunks: Buffer[] = [];
    let received = 0;
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (onBytes?.(chunk.length) === false) {
        chunks.length = 0;
        discard("no_room");
        return;
      }
      if (received > maxBytes) {
        chunks.length = 0;
        discard();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve({ kind: "ok", bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received) }));
    req.on("error", reject);
  });
}

function contentType(header: string | undefined): { type: string | undefined; charset: string | undefined } {
  if (header === undefined) return { type: undefined, charset: undefined };
  const [first, ...parameters] = header.split(";");
  const type = first.trim().toLowerCase();
  let charset: string | undefined;
  for (const parameter of parameters) {
    const eq = parameter.indexOf("=");
    if (eq !== -1 && parameter.slice(0, eq).trim().toLowerCase() === "charset") {
      charset = parameter
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .toLowerCase();
    }
  }
  return { type: type === "" ? undefined : type, charset };
}

/**
 * 415 for another media type, a charset other than UTF-8, or an encoded body: gzip bytes
 * would otherwise be reported as invalid UTF-8, which says nothing of the cause.
 */
export function requireMediaType(req: IncomingMessage, expected: string): void {
  const encoding = (req.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding !== "" && encoding !== "identity") {
    throw problem(
      415,
      "unsupported_media_type",
      `Encoded bodies are not accepted (Content-Encoding: ${encoding.slice(0, 40)}): send the body unencoded, as UTF-8, without Content-Encoding.`,
      { headers: { "Accept-Encoding": "identity" } },
    );
  }
  const { type, charset } = contentType(req.headers["content-type"]);
  if (type !== expected) {
    throw problem(415, "unsupported_media_type", `This route takes Content-Type ${expected}; the request sent ${type ?? "none"}.`, {
      headers: { "Accept-Post": expected },
    });
  }
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw problem(
      415,
      "unsupported_media_type",
      `This route reads UTF-8 only; the request declared charset=${charset}. Send the body as UTF-8 (charset=utf-8, or no charset).`,
      { headers: { "Accept-Post": `${expected}; charset=utf-8` } },
    );
  }
}

/** 415 for a UTF-16 or UTF-32 body; 400 for invalid UTF-8, never turned into U+FFFD, which would change the data silently. */
export function decodeUtf8(bytes: Buffer, title: "malformed_json" | "malformed_form"): string {
  const decoded = decodeUtf8Text(bytes, "The request body");
  if (decoded.ok) return decoded.text;
  if (wideEncoding(bytes) !== undefined) {
    throw problem(415, "unsupported_media_type", `${decoded.reason}.`, { headers: { "Accept-Post": "charset=utf-8" } });
  }
  throw problem(400, title, `${decoded.reason}.`);
}

export function parseJsonBody(req: IncomingMessage, bytes: Buffer): unknown {
  return readJsonBody(req, bytes).value;
}

/** Under `parseStrictJson`'s rule; 400 `validation_failed` names each place the rule refuses. */
export function readJsonBody(
  req: IncomingMessage,
  bytes: Buffer,
  options: Pick<StrictJsonOptions, "provenClean"> = {},
): { readonly text: string; readonly value: unknown } {
  requireMediaType(req, JSON_CONTENT_TYPE);
  const text = decodeUtf8(bytes, "malformed_json");
  if (text.trim() === "") throw problem(400, "malformed_json", "The request body is empty; expected a JSON object.");
  const parsed = parseStrictJson(text, options);
  if (parsed.ok) return { text, value: parsed.value };
  if (parsed.syntax !== undefined) throw problem(400, "malformed_json", `The request body is not valid JSON: ${parsed.syntax}`);
  const errors: FieldErrors = {};
  for (const hazard of parsed.problems) addFieldError(errors, jsonHazardField(hazard), hazard.message);
  throw validationProblem(errors);
}
