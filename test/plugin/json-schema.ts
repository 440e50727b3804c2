/**
 * A JSON Schema (2020-12) validator for the keywords Pulumi's package metaschema uses, and
 * no more: boolean schemas, `$ref` within the document, `type`, `const`, `enum`,
 * `properties`, `additionalProperties`, `required`, `propertyNames`, `items`, `minItems`,
 * `minLength`, `pattern`, `allOf`, `anyOf`, `oneOf`. Annotations (`title`, `description`,
 * `format`, `default`, …) are not assertions. A keyword the metaschema does not use is
 * refused, so a new metaschema cannot pass for checked when it was not.
 */
type Schema = boolean | Record<string, unknown>;

/** The assertion keywords read here, typed as the metaschema uses them. */
interface Keywords {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema;
  required?: string[];
  propertyNames?: Schema;
  items?: Schema;
  minItems?: number;
  minLength?: number;
  pattern?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "title",
  "description",
  "desciption",
  "format",
  "default",
  "contentEncoding",
]);
const ASSERTIONS = new Set([
  "$ref",
  "type",
  "const",
  "enum",
  "properties",
  "additionalProperties",
  "required",
  "propertyNames",
  "items",
  "minItems",
  "minLength",
  "pattern",
  "allOf",
  "anyOf",
  "oneOf",
]);

const typeOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "number" && Number.isInteger(value)
        ? "integer"
        : typeof value;

const matchesType = (value: unknown, type: string): boolean => (type === "number" ? typeof value === "number" : typeOf(value) === type);

/** Errors of `value` against `schema` (a document whose `$ref`s point into `root`), as `path: message`. */
export function validate(
  value: unknown,
  schema: Schema,
  root: Record<string, unknown> = schema as Record<string, unknown>,
  at = "#",
): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${at}: not allowed`];
  const errors: string[] = [];
  for (const keyword of Object.keys(schema)) {
    if (!ANNOTATIONS.has(keyword) && !ASSERTIONS.has(keyword))
      errors.push(`${at}: schema keyword ${keyword} is not supported by this validator`);
  }
  const s = schema as Keywords;
  if (s.$ref !== undefined) {
    const target = String(s.$ref)
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], root) as Schema | undefined;
    if (target === undefined) errors.push(`${at}: unresolved $ref ${s.$ref}`);
    else errors.push(...validate(value, target, root, at));
  }
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((type) => matchesType(value, type))) return [...errors, `${at}: expected ${types.join(" or ")}, got ${typeOf(value)}`];
  }
  if ("const" in s && JSON.stringify(value) !== JSON.stringify(s.const)) errors.push(`${at}: expected ${JSON.stringify(s.const)}`);
  if (s.enum && !s.enum.some((option: unknown) => JSON.stringify(option) === JSON.stringify(value))) {
    errors.push(`${at}: expected one of ${JSON.stringify(s.enum)}`);
  }
  if (typeof value === "string") {
    if (s.minLength !== undefined && value.length < s.minLength) errors.push(`${at}: shorter than ${s.minLength}`);
    if (s.pattern !== undefined && !new RegExp(s.pattern, "u").test(value)) errors.push(`${at}: does not match ${s.pattern}`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) errors.push(`${at}: fewer than ${s.minItems} items`);
    const items = s.items;
    if (items !== undefined) value.forEach((item, i) => errors.push(...validate(item, items, root, `${at}/${i}`)));
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const key of s.required ?? []) if (!(key in object)) errors.push(`${at}: missing required ${key}`);
    for (const [key, inner] of Object.entries(object)) {
      if (s.propertyNames !== undefined) errors.push(...validate(key, s.propertyNames, root, `${at}/${key} (name)`));
      if (s.properties && key in s.properties) errors.push(...validate(inner, s.properties[key], root, `${at}/${key}`));
      else if (s.additionalProperties !== undefined) errors.push(...validate(inner, s.additionalProperties, root, `${at}/${key}`));
    }
  }
  for (const sub of s.allOf ?? []) errors.push(...validate(value, sub, root, at));
  if (s.anyOf && !s.anyOf.some((sub: Schema) => validate(value, sub, root, at).length === 0)) errors.push(`${at}: matches none of anyOf`);
  if (s.oneOf) {
    const matching = s.oneOf.filter((sub: Schema) => validate(value, sub, root, at).length === 0).length;
    if (matching !== 1) errors.push(`${at}: matches ${matching} of oneOf, expected exactly 1`);
  }
  return errors;
}
