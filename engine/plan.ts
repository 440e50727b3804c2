/** What the local engine did (or, in a preview, would do) to one resource. */
export type StepOp = "create" | "same" | "update" | "replace" | "delete" | "delete[retain]" | "refresh";

export interface PlanStep {
  op: StepOp;
  urn: string;
  type: string;
  name: string;
  /** The resource id after the step ("" when not yet known, in a preview). */
  id: string;
  /** For `replace`: the properties that forced it. */
  replaces?: string[];
  /** Set when the step failed. */
  error?: string;
}

/** The result of one local-engine operation, as the demo and the tests read it. */
export interface EngineResult {
  operation: "preview" | "up" | "refresh" | "destroy";
  ok: boolean;
  steps: PlanStep[];
  /** Stack outputs; secret values are wrapped (see `engine/secrets.ts`). */
  outputs: Record<string, unknown>;
  /** Errors as the engine would print them. */
  errors: string[];
  /** What the provider process wrote to stderr (its warnings). */
  providerStderr: string[];
}
