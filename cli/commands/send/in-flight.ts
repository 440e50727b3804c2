import { hash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { IDEMPOTENCY_KEY_MEMORY_MS } from "../../../schemas/idempotency-key";
import type { Message } from "../../../schemas/types";

/** A call written down before its request goes out, and removed once the service answered it. */
export interface InFlightCall {
  readonly key: string;
  readonly stream: string;
  /** When the call was first sent, ISO 8601. */
  readonly startedAt: string;
  /** Each message's identity and place in the file, in call order. */
  readonly ids: string[];
  readonly locations: string[];
  /** The messages as sent: finishing the call sends these very bytes under the same key. */
  readonly messages: Message[];
}

/**
 * True when the call went out longer ago than the service is assumed to remember its key: it
 * is finished safely only within that time; after it, the service may process it as new.
 */
export function isStale(call: InFlightCall, now = Date.now()): boolean {
  return now - Date.parse(call.startedAt) > IDEMPOTENCY_KEY_MEMORY_MS;
}

/**
 * A journal's `in-flight/` directory: one file per call whose request went out unanswered,
 * named by its key's hash, holding the call as it was sent.
 */
export class InFlightRecords {
  constructor(private readonly directory: string) {
    fs.mkdirSync(directory, { recursive: true });
  }

  /** Writes a call down; call before its request goes out. */
  write(call: InFlightCall): void {
    fs.writeFileSync(this.#file(call.key), JSON.stringify(call));
  }

  /** Removes a call's record: it was confirmed, or the service refused it (so it did nothing). */
  drop(key: string): void {
    fs.rmSync(this.#file(key), { force: true });
  }

  /**
   * The calls still in flight, oldest first. A torn record (its request never went out) or
   * one of `confirmedKeys` (killed between the journal line and the tidy-up) is removed.
   */
  read(confirmedKeys: ReadonlySet<string>): InFlightCall[] {
    const calls: InFlightCall[] = [];
    for (const name of fs.readdirSync(this.directory).sort()) {
      const file = path.join(this.directory, name);
      const call = parseRecord<InFlightCall>(readIfExists(file) ?? "");
      if (call === undefined || !Array.isArray(call.messages) || confirmedKeys.has(call.key)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      calls.push(call);
    }
    return calls.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  #file(key: string): string {
    return path.join(this.directory, `${hash("sha256", key).slice(0, 32)}.json`);
  }
}

/** The file's text, or undefined when there is no such file. */
export function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** A JSON object written in one go, or undefined for a blank or torn one (a crash mid-write). */
export function parseRecord<T>(text: string): T | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
