/**
 * What the engine reports of an operation, read from its events (the JSON lines of
 * `pulumi … --event-log`, which the Automation API's `onEvent` also reads): the steps it took
 * on each resource and the diagnostics printed.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";

/** A step the engine took (or, in a preview, planned) on a resource. */
export interface EngineStep {
  /** `create`, `same`, `update`, `replace`, `create-replacement`, `delete`, `delete-replaced`, `refresh`, `read`, `import`… */
  readonly op: string;
  readonly urn: string;
  readonly type: string;
  /** The resource's name (the URN's last part). */
  readonly name: string;
  /** The resource's id, where the engine knew it. */
  readonly id?: string;
  /** Properties whose change forced a replacement (the provider's `replaces`). */
  readonly replaces?: readonly string[];
  /** Whether the step failed. */
  readonly failed?: boolean;
}

/** A message the engine, the program or a provider printed. */
export interface EngineDiagnostic {
  readonly severity: string;
  readonly message: string;
  readonly urn?: string;
  /** A status line (progress), shown beside the resource while it works rather than printed. */
  readonly ephemeral?: boolean;
}

/**
 * Steps and diagnostics, gathered event by event. An event seen twice is counted once: the
 * Automation API's reader of the event log (@logdna/tail-file 2.2.0, in @pulumi/pulumi 3.142
 * to 3.276) can hand the last lines over twice when its final read overlaps a poll still reading,
 * which a busy machine makes likely; the engine numbers each event (`sequence`) once.
 */
export class EngineReport {
  readonly steps: EngineStep[] = [];
  readonly diagnostics: EngineDiagnostic[] = [];
  private readonly seen = new Set<number>();

  add(event: EngineEvent): void {
    if (this.seen.has(event.sequence)) return;
    this.seen.add(event.sequence);
    const pre = event.resourcePreEvent?.metadata;
    if (pre) {
      const state = pre.new ?? pre.old;
      this.steps.push({
        op: pre.op,
        urn: pre.urn,
        type: pre.type,
        name: pre.urn.slice(pre.urn.lastIndexOf("::") + 2),
        ...(state?.id ? { id: state.id } : {}),
        ...(pre.keys?.length ? { replaces: pre.keys } : {}),
      });
    }
    const failed = event.resOpFailedEvent?.metadata;
    if (failed) {
      for (let index = this.steps.length - 1; index >= 0; index--) {
        if (this.steps[index].urn !== failed.urn) continue;
        this.steps[index] = { ...this.steps[index], failed: true };
        break;
      }
    }
    const diagnostic = event.diagnosticEvent;
    if (diagnostic) {
      this.diagnostics.push({
        severity: diagnostic.severity,
        message: diagnostic.message.trimEnd(),
        ...(diagnostic.urn ? { urn: diagnostic.urn } : {}),
        ...(diagnostic.ephemeral ? { ephemeral: true } : {}),
      });
    }
  }

  /** Adds every event of an `--event-log` file (one JSON object a line). */
  addLog(text: string): void {
    for (const line of text.split("\n")) if (line.trim()) this.add(JSON.parse(line) as EngineEvent);
  }
}
