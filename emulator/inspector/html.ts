/**
 * HTML built from text the emulator received: every interpolated value is escaped unless it
 * is itself already-built HTML. Payloads, descriptions, types and URLs are attacker-controlled.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and quoted attribute values. */
function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Rendered HTML, safe to insert as is. */
export class Html {
  constructor(readonly text: string) {}
}

/** Tagged template: values are escaped, arrays joined, `Html` inserted as is, null and undefined left out. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((v) => (v instanceof Html ? v.text : escapeHtml(v))).join("")
      : value instanceof Html
        ? value.text
        : escapeHtml(value ?? "");
    out += rendered + strings[i + 1];
  });
  return new Html(out);
}

/**
 * One value (an id, a URL, a type) on one line: cut with an ellipsis when it does not fit,
 * the whole of it in the tooltip, never wrapped mid-token.
 */
export function clip(value: string, className = ""): Html {
  return html`<span class="clip ${className}" title="${value}">${value}</span>`;
}

/** A time as hours to milliseconds (UTC), the full timestamp in the tooltip. */
export function clock(iso: string): Html {
  return html`<time datetime="${iso}" title="${iso}">${iso.slice(11, 23)}</time>`;
}

/** A column of {@link table}: its header, and the width class of its `<col>` (none: the rest). */
export interface Column {
  readonly header: string;
  readonly width?: string;
  readonly number?: boolean;
}

/** A table of a tab: fixed column widths, so no value wraps mid-token. */
export function table(id: string, columns: readonly Column[], rows: readonly Html[]): Html {
  return html`<table id="${id}">
    <colgroup>
      ${columns.map((column) => (column.width ? html`<col class="${column.width}" />` : html`<col />`))}
    </colgroup>
    <thead>
      <tr>
        ${columns.map((column) => (column.number ? html`<th class="number">${column.header}</th>` : html`<th>${column.header}</th>`))}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
