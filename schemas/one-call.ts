// A message too large for a call of its own can never be sent: `messaging send` and `MessageBatch` refuse it before any call, by this rule.
import { MAX_REQUEST_BODY_BYTES } from "./http";
import { jsonByteLength } from "./json-size";

export const envelopeBytes = (stream: string): number => jsonByteLength({ stream, messages: [] });

// Room for the envelope when the stream is not known yet (a file read before its stream is given).
const ANY_ENVELOPE_BYTES = 1024;

/**
 * Why `message` cannot be sent even alone, or undefined when it fits.
 * @param options.stream the call's stream, for the exact envelope; without it, room for any
 * @param options.source the message's source text, when read from one: a message's JSON takes
 *   at most 6 bytes per UTF-16 unit of it (a control character becomes `\u00XX`), so only a
 *   source near the limit is measured
 * @param options.escapeFree see `jsonByteLength`
 */
export function tooLargeForOneCall(
  message: unknown,
  options: { readonly stream?: string; readonly source?: string; readonly escapeFree?: boolean } = {},
): string | undefined {
  const room = MAX_REQUEST_BODY_BYTES - (options.stream === undefined ? ANY_ENVELOPE_BYTES : envelopeBytes(options.stream));
  if (options.source !== undefined && options.source.length * 6 <= room) return undefined;
  const bytes = jsonByteLength(message, { escapeFree: options.escapeFree });
  if (bytes <= room) return undefined;
  return (
    `the message takes ${bytes} bytes as JSON; one call carries at most ${MAX_REQUEST_BODY_BYTES} bytes ` +
    `(${MAX_REQUEST_BODY_BYTES / 2 ** 20} MiB) in all, so it cannot be sent even alone`
  );
}
