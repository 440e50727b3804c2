import { z } from "zod";
import { formatPath } from "./field-errors";
import { isExactJsonNumber } from "./json-number";

/** Deepest nesting accepted in a JSON body or free-form value, the outermost counting as 1: serializing deeper back would overflow the stack. */
export const MAX_JSON_DEPTH = 32;

/** Keys refused in free-form JSON: `__proto__` cannot survive a round trip through JavaScript objects (zod's records drop it). */
export const FORBIDDEN_JSON_KEYS: readonly string[] = ["__proto__"];

/** One thing in a value that JSON cannot carry unchanged. */
export interface JsonHazard {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export interface FindJsonHazardsOptions {
  /** Deepest nesting accepted, counted in the document the value is sent in. Default {@link MAX_JSON_DEPTH}. */
  readonly maxDepth?: number;
  /** The level the value sits at in that document (the document is 1). Default 1. */
  readonly level?: number;
  /** Stop after this many hazards. Default 20. */
  readonly limit?: number;
}

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
 * What in `value` would not survive a JSON round trip unchanged, or is refused on principle (a `__proto__` key, too deep).
 * An `undefined` object member is fine: it is left out, as callers expect. Iterative, so deep values are reported, not a stack overflow.
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
  // Paths are built only for hazards: a clean value costs one small object per container.
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

export function jsonHazardField(hazard: JsonHazard): string {
  return formatPath(hazard.path);
}

/** A free-form JSON object (a template `model`, an event's `data`), refused on any hazard so what is sent is what arrives. Not copied. */
export const JsonObject = jsonObjectAt(1);
export type JsonObject = z.infer<typeof JsonObject>;

/** {@link JsonObject} for a value sent at `level` of a request body, so the whole body stays within {@link MAX_JSON_DEPTH}. */
export function jsonObjectAt(level: number) {
  return z
    .custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), {
      error: "expected an object",
      abort: true,
    })
    .superRefine((value, ctx) => reportJsonHazards(value, ctx, { level }));
}
