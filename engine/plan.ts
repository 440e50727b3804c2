import type { Diagnostic } from "./engine-service";

/**
 * A step, named as the engine names its operations (`deploy.Op`), with the CLI's `[retain]`
 * suffix for a retained resource (display/rows.go `addRetainStatusFlag`).
 */
export type StepOp =
  | "create"
  | "same"
  | "update"
  | "replace"
  | "replace[retain]"
  | "delete"
  | "delete[retain]"
  | "delete-replaced"
  | "delete-replaced[retain]"
  | "refresh"
  | "import";

export interface PlanStep {
  op: StepOp;
  urn: string;
  type: string;
  name: string;
  /** The resource id after the step ("" when not yet known, in a preview). */
  id: string;
  /** For replacements: the replaced resource's id. */
  oldId?: string;
  /** For `replace`: the properties that forced it. */
  replaces?: string[];
  /** Set when the step failed: the message the CLI prints for it. */
  error?: string;
}

/** The result of one local-engine operation, as the demo and the tests read it. */
export interface EngineResult {
  operation: "preview" | "up" | "refresh" | "destroy";
  ok: boolean;
  /** In the order the engine ran them: the stack, components, the default provider and custom resources. */
  steps: PlanStep[];
  /**
   * Stack outputs. Secrets are wrapped (see `engine/secrets.ts`); in a preview, values not
   * known yet read as the CLI prints them, e.g. `output<string>`.
   */
  outputs: Record<string, unknown>;
  /** Error messages as the CLI prints them (also among `diagnostics`). */
  errors: string[];
  /** Everything the CLI would print as a diagnostic: errors, the program's logs, the provider's stderr (as info). */
  diagnostics: Diagnostic[];
  /** What the provider process wrote to stderr (the CLI shows each line as an info diagnostic). */
  providerStderr: string[];
}

/**
 * The exit code of an operation's process (run-program.ts) when the run it reports failed: the
 * one the Node.js language host ends a program with after logging its error.
 */
export const FAILED_RUN_EXIT_CODE = 32;
