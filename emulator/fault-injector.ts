import { randomInt } from "node:crypto";
import { z } from "zod";
import { ValidationError } from "../errors/messaging-error";
import { toFieldErrors } from "../schemas/field-errors";
import { chooseFault, FAULT_KINDS, mulberry32, type FaultKind } from "./faults";

/**
 * Body of `POST /_emulator/faults` and argument of `Emulator.setFaults`.
 * `kinds` is an emulator extension: restrict the mix, e.g. `["drop_after_processing"]`.
 */
export const FaultSettingsInput = z.strictObject({
  /** Probability in [0, 1] that an API request fails; 0 turns injection off. */
  failureRate: z.number().min(0, { error: "expected a number from 0 to 1" }).max(1, { error: "expected a number from 0 to 1" }),
  /** PRNG seed (integer) so a run repeats; a random one is picked (and reported) when omitted. */
  seed: z.number().int({ error: "expected an integer seed" }).optional(),
  /** Faults to choose among; all of them when omitted. */
  kinds: z.array(z.enum(FAULT_KINDS)).min(1, { error: "expected at least one fault kind" }).optional(),
});
/** Fault settings as given. */
export type FaultSettingsInput = z.input<typeof FaultSettingsInput>;

/** Fault settings in force (what `POST /_emulator/faults` answers). */
export interface FaultSettings {
  /** Probability in [0, 1] that an API request fails. */
  readonly failureRate: number;
  /** The PRNG seed in use. */
  readonly seed: number;
  /** The faults chosen among. */
  readonly kinds: readonly FaultKind[];
}

/** Holds the current fault settings and the seeded PRNG; one per emulator. */
export class FaultInjector {
  private current: FaultSettings = { failureRate: 0, seed: 0, kinds: FAULT_KINDS };
  private random: () => number = mulberry32(0);

  /** Replaces the settings and restarts the PRNG from the seed. Throws a `ValidationError` naming each bad field. */
  configure(input: FaultSettingsInput): FaultSettings {
    const result = FaultSettingsInput.safeParse(input);
    if (!result.success) throw new ValidationError("fault settings", toFieldErrors(result.error.issues));
    const parsed = result.data;
    const seed = parsed.seed ?? randomInt(2 ** 31);
    this.current = { failureRate: parsed.failureRate, seed, kinds: parsed.kinds ?? FAULT_KINDS };
    this.random = mulberry32(seed);
    return this.settings();
  }

  /** The settings in force. */
  settings(): FaultSettings {
    return { ...this.current, kinds: [...this.current.kinds] };
  }

  /** The fault for the next API request, or undefined to serve it normally. */
  next(): FaultKind | undefined {
    return chooseFault(this.current.failureRate, this.current.kinds, this.random);
  }
}
