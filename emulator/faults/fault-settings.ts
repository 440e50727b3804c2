// Both the operations table and the injector read these schemas, so neither imports the other.
import { z } from "zod";
import { ValidationError } from "../../errors/messaging-error";
import { toFieldErrors } from "../../schemas/field-errors";
import { FAULT_KINDS } from "./fault-choice";

/** A scripted request's answer: a fault, or `"none"` to serve it normally. */
export const ScriptedFault = z.enum([...FAULT_KINDS, "none"]);
export type ScriptedFault = z.infer<typeof ScriptedFault>;

export const RandomFaults = z.strictObject({
  failureRate: z.number().min(0, { error: "expected a number from 0 to 1" }).max(1, { error: "expected a number from 0 to 1" }),
  /** So a run repeats; a random one is picked (and reported) when omitted. */
  seed: z.number().int({ error: "expected an integer seed" }).optional(),
  /** All of them when omitted. */
  kinds: z.array(z.enum(FAULT_KINDS)).min(1, { error: "expected at least one fault kind" }).optional(),
});

/** The next API requests meet exactly these, in order; then none. */
export const ScriptedFaults = z.strictObject({
  script: z.array(ScriptedFault).min(1, { error: "expected at least one entry" }),
});

/** A random mix (for load), `{ failureRate, seed?, kinds? }`, or a script (for tests), `{ script: [...] }`. */
export type FaultSettingsInput = z.input<typeof RandomFaults> | z.input<typeof ScriptedFaults>;

export type ParsedFaultSettings = z.output<typeof RandomFaults> | z.output<typeof ScriptedFaults>;

/** A script when the input has `script`, a random mix otherwise, so errors name the fields of the one meant. */
export function parseFaultSettings(input: unknown): z.ZodSafeParseResult<ParsedFaultSettings> {
  const scripted = typeof input === "object" && input !== null && "script" in input;
  return scripted ? ScriptedFaults.safeParse(input) : RandomFaults.safeParse(input);
}

export function faultSettingsOrThrow(input: unknown): ParsedFaultSettings {
  const result = parseFaultSettings(input);
  if (!result.success) throw new ValidationError("fault settings", toFieldErrors(result.error.issues));
  return result.data;
}

export const FaultSettingsSchema = z.object({
  /** 0 while a script runs. */
  failureRate: z.number(),
  seed: z.number(),
  kinds: z.array(z.enum(FAULT_KINDS)).readonly(),
  /** The entries not used yet; absent when faults are drawn at random. */
  script: z.array(ScriptedFault).readonly().optional(),
});
/** Fault settings in force. */
export type FaultSettings = Readonly<z.output<typeof FaultSettingsSchema>>;
