import { randomInt } from "node:crypto";
import { chooseFault, FAULT_KINDS, mulberry32, type FaultKind } from "./fault-choice";
import type { FaultSettings, ParsedFaultSettings, ScriptedFault } from "./fault-settings";

/**
 * Holds the current fault settings, the seeded PRNG or the script, and the log of what each
 * API request met since the settings were last set; one per emulator.
 */
export class FaultInjector {
  private current: Omit<FaultSettings, "script"> = { failureRate: 0, seed: 0, kinds: FAULT_KINDS };
  private random: () => number = mulberry32(0);
  private script: ScriptedFault[] | undefined;
  private met: ScriptedFault[] = [];

  /** Replaces the settings (parsed by {@link parseFaultSettings}), restarts the PRNG from the seed, and clears the log. */
  configure(parsed: ParsedFaultSettings): FaultSettings {
    this.met = [];
    if ("script" in parsed) {
      this.script = [...parsed.script];
      this.current = { failureRate: 0, seed: 0, kinds: FAULT_KINDS };
      return this.settings();
    }
    const seed = parsed.seed ?? randomInt(2 ** 31);
    this.script = undefined;
    this.current = { failureRate: parsed.failureRate, seed, kinds: parsed.kinds ?? FAULT_KINDS };
    this.random = mulberry32(seed);
    return this.settings();
  }

  /** The settings in force. */
  settings(): FaultSettings {
    return { ...this.current, kinds: [...this.current.kinds], ...(this.script ? { script: [...this.script] } : {}) };
  }

  /** What each API request met since the settings were last set, in order (`"none"`: served normally). */
  log(): ScriptedFault[] {
    return [...this.met];
  }

  /** The fault for the next API request, or undefined to serve it normally. */
  next(): FaultKind | undefined {
    const fault = this.script ? this.script.shift() : chooseFault(this.current.failureRate, this.current.kinds, this.random);
    this.met.push(fault ?? "none");
    return fault === "none" ? undefined : fault;
  }
}
