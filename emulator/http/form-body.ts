import { problem } from "./problem-response";

// `ignoreBOM`: a value starting with U+FEFF keeps it, so that the endpoint schema refuses it
// by name (the default drops it, and the endpoint would store another value than was sent).
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// Percent-decodes one name or value (`+` is a space) to bytes, then UTF-8 with no
// replacement: `URLSearchParams` would turn `%FF` into U+FFFD without a word.
function decodeComponent(raw: string, where: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2b) {
      bytes.push(0x20);
    } else if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // Raw non-ASCII text (already valid: the body was decoded strictly): keep its UTF-8 bytes.
      const char = String.fromCodePoint(raw.codePointAt(i)!);
      bytes.push(...Buffer.from(char, "utf8"));
      i += char.length - 1;
    }
  }
  try {
    return UTF8.decode(Uint8Array.from(bytes));
  } catch {
    throw problem(400, "malformed_form", `The form ${where} is not valid UTF-8 once percent-decoded.`);
  }
}

/** Fields in order, repeated names kept; `text` already decoded strictly as UTF-8. */
export function parseFormBody(text: string): Array<[name: string, value: string]> {
  const fields: Array<[string, string]> = [];
  const parts = text.split("&");
  parts.forEach((part, index) => {
    if (part === "") return;
    const eq = part.indexOf("=");
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? "" : part.slice(eq + 1);
    const name = decodeComponent(rawName, `field name at position ${index + 1}`);
    const value = decodeComponent(rawValue, `value of field '${name}' (position ${index + 1})`);
    fields.push([name, value]);
  });
  return fields;
}
