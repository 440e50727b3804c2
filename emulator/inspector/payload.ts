import { html, type Html } from "./html";

/** Most characters of one payload shown on the page; the listing routes have the rest. */
export const INSPECTOR_PAYLOAD_CHARS = 16 * 1024;
/** Characters of a payload shown before it is expanded. */
const SUMMARY_CHARS = 80;

// JSON text indented for reading when it is small enough to parse for that; cut at the cap.
function readable(json: string): { text: string; cut: number } {
  if (json.length > INSPECTOR_PAYLOAD_CHARS) return { text: json.slice(0, INSPECTOR_PAYLOAD_CHARS), cut: json.length };
  try {
    return { text: JSON.stringify(JSON.parse(json), null, 2), cut: 0 };
  } catch {
    return { text: json, cut: 0 };
  }
}

/**
 * A body as text (escaped): pretty JSON when it parses, its lines kept (it scrolls sideways
 * rather than wrapping), cut at {@link INSPECTOR_PAYLOAD_CHARS} saying where the rest is.
 */
export function body(text: string, where: string, note?: string): Html {
  const { text: shown, cut } = readable(text);
  return html`<pre class="body">${shown}</pre>
    ${cut > 0 ? html`<p class="note">first ${INSPECTOR_PAYLOAD_CHARS} of ${cut} characters; all of it: ${where}</p>` : ""}
    ${note !== undefined ? html`<p class="note">${note}</p>` : ""}`;
}

/**
 * A payload collapsed to its first characters and expandable in place (`<details>`, whose
 * `data-key` keeps it open across the page's refreshes).
 */
export function collapsedBody(text: string, where: string, key: string, label = ""): Html {
  const summary = text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}…` : text;
  return html`<details class="payload" data-key="${key}">
    <summary>${label ? html`<span class="label">${label}</span>` : ""}<code class="clip" title="${summary}">${summary}</code></summary>
    ${body(text, where)}
  </details>`;
}
