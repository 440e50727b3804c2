import { z } from "zod";
import { formatPath } from "./field-errors";
import { isExactJsonNumber } from "./json-number";

/**
 * Deepest nesting of objects and arrays accepted in a JSON body or a free-form value (a
 * template `model`, an event's `data`): 32 levels, the outermost object counting as 1.
 * Deeper values are rejected rather than stored: serializing them back (a listing, a
 * delivery) would overflow the stack.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Object keys refused in free-form JSON. `__proto__` cannot survive a round trip through
 * JavaScript objects: an assignment replaces the prototype and zod's records drop the key,
 * so the value would change silently. (`constructor` and `prototype` are ordinary keys: kept
 * as data in free-form objects, refused as unknown fields where the fields are fixed.)
 */
export const FORBIDDEN_JSON_KEYS: readonly string[] = ["__proto__"];

/** One thing in a value that JSON cannot carry unchanged. */
export interface JsonHazard {
  /** Where it is, e.g. `["messages", 0, "template", "model", "__proto__"]`. */
  readonly path: readonly PropertyKey[];
  /** What is wrong, for people. */
  readonly message: string;
}

/** Options of {@link findJsonHazards}. */
export interface FindJsonHazardsOptions {
  /** Deepest nesting accepted, counted in the document the value is sent in. Default {@link MAX_JSON_DEPTH}. */
  readonly maxDepth?: number;
  /**
   * The level the value itself sits at in that document (the document counting as 1): a
   * value sent inside others may nest only `maxDepth - level + 1` levels itself. Default 1.
   */
  readonly level?: number;
  /** Stop after this many hazards. Default 20. */
  readonly limit?: number;
}

/**
 * Why a number cannot be carried exactly by JSON to every reader, or undefined: not finite
 * (JSON carries it as null), `-0` (JSON carries it as 0), or beyond ±(2^53 − 1), where a
 * JavaScript reader cannot tell it from its neighbours (so `9007199254740993`, written in a
 * file, has already become …992).
 */
function numberHazard(v: number): string | undefined {
  if (isExactJsonNumber(v)) return undefined;
  if (!Number.isFinite(v)) return `expected a finite number, got ${String(v)} (JSON would carry it as null)`;
  if (Object.is(v, -0)) return "expected a number other than -0 (JSON would carry it as 0)";
  return `expected a number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (2^53 - 1), got ${String(v)}, which is not exact for JavaScript readers; send it as a string`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Lists what in `value` would not survive `JSON.stringify` then `JSON.parse` unchanged, or is
 * refused on principle: a `__proto__` key, nesting deeper than `maxDepth`, a non-finite number
 * (`Infinity`, `NaN`, or `1e400` as parsed from JSON, all of which serialize as `null`), `-0`
 * (serialized as `0`), a number beyond ±(2^53 − 1) (not exact for JavaScript readers), a hole
 * in a sparse array or an `undefined` item (both become `null`), and values JSON has no form
 * for (functions, symbols, bigints, class instances such as `Date` or `Map`). An `undefined`
 * object member is fine: it is left out, as JavaScript callers expect.
 *
 * Iterative, so a value nested 50,000 deep is reported, not a stack overflow.
 */
export function findJsonHazards(value: unknown, options: FindJsonHazardsOptions = {}): JsonHazard[] {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const level = options.level ?? 1;
  const limit = options.limit ?? 20;
  const tooDeep =
    level === 1
      ? `nested more than ${maxDepth} levels deep`
      : `nested more than ${maxDepth - level + 1} levels deep (the request that carries it may nest ${maxDepth})`;
  const hazards: JsonHazard[] = [];
  // Only containers are pushed, each with a link to its parent: paths are built only for
  // hazards, so a clean 1,000-message batch costs one small object per container.
  interface Container {
    readonly value: object;
    readonly parent: Container | undefined;
    readonly key: PropertyKey | undefined;
    readonly depth: number;
  }
  const pathOf = (parent: Container | undefined, key: PropertyKey | undefined): PropertyKey[] => {
    const path: PropertyKey[] = key === undefined ? [] : [key];
    for (let c = parent; c !== undefined && c.key !== undefined; c = c.parent) path.unshift(c.key);
    return path;
  };
  const stack: Container[] = [];
  // Checks one value; containers are queued. Returns nothing: hazards are collected.
  const visit = (v: unknown, parent: Container | undefined, key: PropertyKey | undefined, depth: number): void => {
    switch (typeof v) {
      case "string":
      case "boolean":
        return;
      case "number": {
        const problem = numberHazard(v);
        if (problem !== undefined) hazards.push({ path: pathOf(parent, key), message: problem });
        return;
      }
      case "undefined":
        hazards.push({ path: pathOf(parent, key), message: "expected a JSON value, got undefined" });
        return;
      case "object":
        if (v === null) return;
        if (depth > maxDepth) {
          hazards.push({ path: pathOf(parent, key), message: tooDeep });
          return;
        }
        if (!Array.isArray(v) && !isPlainObject(v)) {
          hazards.push({ path: pathOf(parent, key), message: `expected a plain JSON object, got ${Object.prototype.toString.call(v)}` });
          return;
        }
        stack.push({ value: v, parent, key, depth });
        return;
      default:
        hazards.push({ path: pathOf(parent, key), message: `expected a JSON value, got a ${typeof v}` });
    }
  };
  visit(value, undefined, undefined, level);
  while (stack.length > 0 && hazards.length < limit) {
    const container = stack.pop()!;
    const v = container.value;
    if (Array.isArray(v)) {
      // Backwards, so the stack visits items in order.
      for (let i = v.length - 1; i >= 0; i--) {
        if (!(i in v)) hazards.push({ path: pathOf(container, i), message: "a hole in a sparse array (JSON would carry it as null)" });
        else visit(v[i], container, i, container.depth + 1);
      }
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const member = (v as Record<string, unknown>)[key];
      if (FORBIDDEN_JSON_KEYS.includes(key)) hazards.push({ path: pathOf(container, key), message: `the key ${key} is not accepted` });
      else if (member !== undefined) visit(member, container, key, container.depth + 1);
    }
  }
  return hazards.slice(0, limit);
}

/** {@link findJsonHazards} as zod issues, for a schema's `superRefine`. */
export function reportJsonHazards(value: unknown, ctx: z.RefinementCtx, options: FindJsonHazardsOptions = {}): void {
  for (const hazard of findJsonHazards(value, options)) {
    ctx.addIssue({ code: "custom", path: [...hazard.path], message: hazard.message });
  }
}

/** Renders a hazard's path as a field name (`messages[0].template.model.__proto__`). */
export function jsonHazardField(hazard: JsonHazard): string {
  return formatPath(hazard.path);
}

/**
 * A free-form JSON object (a template `model`, an event's `data`): string keys to JSON values,
 * refused when {@link findJsonHazards} finds anything, so what is sent is exactly what arrives.
 * The value is kept as given (not copied).
 */
export const JsonObject = jsonObjectAt(1);
export type JsonObject = z.infer<typeof JsonObject>;

/**
 * {@link JsonObject} for a value sent at `level` of a request body (the body counting as 1),
 * so that the body as a whole stays within {@link MAX_JSON_DEPTH}: one rule, applied to the
 * value as it will sit in the request, by every layer that checks it.
 */
export function jsonObjectAt(level: number) {
  return z
    .custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), {
      error: "expected an object",
      abort: true,
    })
    .superRefine((value, ctx) => reportJsonHazards(value, ctx, { level }));
}
