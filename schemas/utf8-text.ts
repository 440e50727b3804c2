// Text input is UTF-8 only (RFC 8259 §8.1). UTF-16/32 is refused by name rather than as a syntax error, invalid UTF-8 with
// the offset of the first bad byte, never replaced by U+FFFD. No Node-only module: the web receiver uses it too.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

export type Utf8TextResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** The UTF-16 or UTF-32 encoding `bytes` start in, by byte order mark or a NUL among the first two bytes (no JSON or CSV has one). */
export function wideEncoding(bytes: Uint8Array): string | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe) return c === 0 && d === 0 ? "UTF-32LE (byte order mark FF FE 00 00)" : "UTF-16LE (byte order mark FF FE)";
  if (a === 0xfe && b === 0xff) return "UTF-16BE (byte order mark FE FF)";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "UTF-32BE (byte order mark 00 00 FE FF)";
  if (bytes.length >= 2 && (a === 0 || b === 0)) return "UTF-16 or UTF-32 (a NUL byte among the first two)";
  return undefined;
}

/** Offset of the first byte outside a well-formed UTF-8 sequence (no overlongs, surrogates, or above U+10FFFF), or -1. */
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

/** Decodes `bytes` as UTF-8 under the rule above; `what` (`the file`) names the input in the reason. */
export function decodeUtf8Text(bytes: Uint8Array, what: string): Utf8TextResult {
  const wide = wideEncoding(bytes);
  if (wide !== undefined) return { ok: false, reason: `${what} is ${wide}; only UTF-8 is accepted: re-encode it as UTF-8` };
  try {
    return { ok: true, text: UTF8.decode(bytes) };
  } catch {
    return { ok: false, reason: `${what} is not valid UTF-8 (first invalid byte at offset ${firstInvalidUtf8(bytes)})` };
  }
}

/** True when `text` holds a lone surrogate (half of a UTF-16 pair): it cannot be written as UTF-8, which would carry U+FFFD instead. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}
