/**
 * Form encoding of a request body (`application/x-www-form-urlencoded`), as the service's
 * form operations take it: one field per property, in the schema's order; an array as the
 * repeated field `name[]` (the spec's `events[]`); absent properties left out.
 */
export function encodeForm(fields: Readonly<Record<string, unknown>>): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) form.append(`${name}[]`, String(item));
    else form.append(name, String(value));
  }
  return form.toString();
}
