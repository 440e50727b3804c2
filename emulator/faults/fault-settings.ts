/**
 * Fault settings as data: what `POST /_emulator/faults` and `Emulator.setFaults` take, and
 * what the injector answers. Both the operations table and the injector read these schemas,
 * so neither imports the other.
 */
import { z } from "zod";
import { ValidationError } from "../../errors/messaging-error";
import { toFieldErrors } from "../../schemas/field-errors";
import { FAULT_KINDS } from "./fault-choice";

/** A scripted request's answer: a fault, or `"none"` to serve it normally. */
export const ScriptedFault = z.enum([...FAULT_KINDS, "none"]);
export type ScriptedFault = z.infer<typeof ScriptedFault>;

/** Faults drawn at random: `failureRate`, and optionally `seed` and `kinds`. */
export const RandomFaults = z.strictObject({
  /** Probability in [0, 1] that an API request fails; 0 turns injection off. */
  failureRate: z.number().min(0, { error: "expected a number from 0 to 1" }).max(1, { error: "expected a number from 0 to 1" }),
  /** PRNG seed (integer) so a run repeats; a random one is picked (and reported) when omitted. */
  seed: z.number().int({ error: "expected an integer seed" }).optional(),
  /** Faults to choose among; all of them when omitted. */
  kinds: z.array(z.enum(FAULT_KINDS)).min(1, { error: "expected at least one fault kind" }).optional(),
});

/** Faults given one by one: the next API requests meet exactly these, in order; then none. */
export const ScriptedFaults = z.strictObject({
  script: z.array(ScriptedFault).min(1, { error: "expected at least one entry" }),
});

/**
 * Body of `POST /_emulator/faults` and argument of `Emulator.setFaults`: a random mix (for
 * load) — `{ failureRate, seed?, kinds? }`, where `kinds` restricts the mix, e.g.
 * `["drop_after_processing"]` — or a script (for tests) — `{ script: ["none",
 * "drop_after_processing", …] }`, exactly these answers for the next requests, then none.
 */
export type FaultSettingsInput = z.input<typeof RandomFaults> | z.input<typeof ScriptedFaults>;

/** Fault settings as parsed: what {@link FaultInjector.configure} takes. */
export type ParsedFaultSettings = z.output<typeof RandomFaults> | z.output<typeof ScriptedFaults>;

/**
 * Parses fault settings, once, where they enter the emulator (the `/_emulator/faults` route,
 * `Emulator.setFaults`): a script when the input has `script`, a random mix otherwise (so
 * errors name the fields of the one meant).
 */
export function parseFaultSettings(input: unknown): z.ZodSafeParseResult<ParsedFaultSettings> {
  const scripted = typeof input === "object" && input !== null && "script" in input;
  return scripted ? ScriptedFaults.safeParse(input) : RandomFaults.safeParse(input);
}

/** {@link parseFaultSettings}, throwing a `ValidationError` naming each bad field (for `Emulator.setFaults`). */
export function faultSettingsOrThrow(input: unknown): ParsedFaultSettings {
  const result = parseFaultSettings(input);
  if (!result.success) throw new ValidationError("fault settings", toFieldErrors(result.error.issues));
  return result.data;
}

/** The schema of {@link FaultSettings}. */
export const FaultSettingsSchema = z.object({
  /** Probability in [0, 1] that an API request fails (0 while a script runs). */
  failureRate: z.number(),
  /** The PRNG seed in use. */
  seed: z.number(),
  /** The faults chosen among. */
  kinds: z.array(z.enum(FAULT_KINDS)).readonly(),
  /** The script's entries not used yet; absent when faults are drawn at random. */
  script: z.array(ScriptedFault).readonly().optional(),
});
/** Fault settings in force (what `POST /_emulator/faults` answers). */
export type FaultSettings = Readonly<z.output<typeof FaultSettingsSchema>>;
