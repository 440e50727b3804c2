import type { FormField } from "../schemas/form-fields";

/**
 * Form encoding of a request body (`application/x-www-form-urlencoded`), as the service's form operations take it: one field per
 * property, in the schema's order (`fields`, from `formFieldsOf`: each under its wire name); an array as the repeated field
 * `name[]` (the spec's `events[]`); absent properties left out. Without `fields`, each property under its own name.
 */
export function encodeForm(values: Readonly<Record<string, unknown>>, fields?: readonly Pick<FormField, "key" | "name">[]): string {
  const form = new URLSearchParams();
  const named = fields ?? Object.keys(values).map((key) => ({ key, name: Array.isArray(values[key]) ? `${key}[]` : key }));
  for (const { key, name } of named) {
    const value = values[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) form.append(name, String(item));
    else form.append(name, String(value));
  }
  return form.toString();
}
