import { BodyTooLargeError, ConfigurationError } from "../../errors/messaging-error";

// Checked by shape: a Request from another realm or a polyfill is one too.
export function assertWebRequest(value: unknown, who: string): asserts value is Request {
  const candidate = value as { headers?: { get?: unknown }; method?: unknown; bodyUsed?: unknown } | null;
  if (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.headers?.get === "function" &&
    typeof candidate.method === "string" &&
    typeof candidate.bodyUsed === "boolean"
  ) {
    return;
  }
  const got =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "an array"
        : typeof value === "object"
          ? "an object that is not a Request"
          : typeof value;
  throw new ConfigurationError(
    `${who} needs a standard Request (the one your runtime's fetch handler receives), got ${got}. ` +
      "With Node's http or Express (an IncomingMessage) use createWebhookHandler or constructEvent from pulumi-messaging/receiver.",
  );
}

// Stops as soon as `Content-Length` or the bytes received exceed `maxBytes`.
export async function readRequestBody(request: Request, maxBytes: number, who: string): Promise<Uint8Array> {
  if (request.bodyUsed) {
    throw new ConfigurationError(
      `${who} needs the request's raw body, but it has already been read (request.bodyUsed is true): ` +
        "call it before anything reads the body (request.json(), request.text(), a framework's body parser), " +
        "or pass request.clone() taken before that read",
    );
  }
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError(maxBytes);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
