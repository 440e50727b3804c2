import type { IncomingMessage } from "node:http";
import { BodyTooLargeError, ConfigurationError } from "../../errors/messaging-error";

/** The raw body, from the stream or the Buffer express.raw() left in `req.body`; a parser's other output cannot be verified. */
export async function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (Buffer.isBuffer(parsed)) {
    if (parsed.length > maxBytes) throw new BodyTooLargeError(maxBytes);
    return parsed;
  }
  if (parsed !== undefined || req.readableEnded) {
    throw new ConfigurationError(
      "the webhook handler needs the raw body, but a body parser has already read it (req.body is " +
        `${parsed === undefined ? "unset" : typeof parsed}): mount the handler before express.json(), ` +
        'or on its route with express.raw({ type: "*/*" })',
    );
  }
  return readStream(req, maxBytes);
}

// Stops as soon as `Content-Length` or the bytes received exceed `maxBytes`, without buffering the rest.
function readStream(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      reject(new BodyTooLargeError(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        reject(new BodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error("the client aborted the request"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}
