import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * How long the service is assumed to remember an idempotency key: the emulator keeps its
 * answers 24 hours. A re-run within that time is safe on the keys alone; after it, only the
 * journal stands between a chunk and a second delivery.
 */
export const KEY_MEMORY_MS = 24 * 60 * 60 * 1000;

/** What a send is: the same values give the same chunk keys, on any machine, in any run. */
export interface SendIdentity {
  /** SHA-256 of the file's bytes, hex. */
  readonly fileDigest: string;
  readonly stream: string;
  readonly batchSize: number;
  /** `""` for the first send of a file; a random id for each `--resend`. */
  readonly sendId: string;
}

/**
 * The idempotency key prefix of a send: `ms1-` and 40 hex digits of a SHA-256 over the
 * file's content, the stream, the batch size and the send id. Chunk `i` is sent with
 * `${prefix}-${i}`, so re-running the same command sends every chunk under the key it had.
 */
export function sendKeyPrefix(identity: SendIdentity): string {
  const material = ["pulumi-messaging send v1", identity.fileDigest, identity.stream, String(identity.batchSize), identity.sendId].join(
    "\n",
  );
  return `ms1-${createHash("sha256").update(material).digest("hex").slice(0, 40)}`;
}

/**
 * Where journals are kept: `--state-dir`, else `MESSAGING_STATE_DIR`, else
 * `$XDG_STATE_HOME/pulumi-messaging/sends`, else `~/.local/state/pulumi-messaging/sends`.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MESSAGING_STATE_DIR) return env.MESSAGING_STATE_DIR;
  const base = env.XDG_STATE_HOME || path.join(os.homedir(), ".local", "state");
  return path.join(base, "pulumi-messaging", "sends");
}

/** First line of a journal. */
export interface JournalHeader extends SendIdentity {
  readonly version: 1;
  readonly keyPrefix: string;
  /** The file as given, for people reading the journal. */
  readonly file: string;
  readonly messages: number;
  readonly chunks: number;
  /** When the send was first started, ISO 8601. */
  readonly startedAt: string;
}

/** One confirmed chunk. */
export interface JournalChunk {
  readonly chunk: number;
  readonly count: number;
  readonly id?: string;
}

/**
 * The record of a send's confirmed chunks: an append-only NDJSON file named after the key
 * prefix, a header line then one line per chunk the service confirmed. It only saves work
 * and answers "what was sent": a chunk confirmed but not yet written (the process killed in
 * between) is sent again under its key, and the service answers it from its record. A torn
 * last line (a crash mid-write) is ignored.
 */
export class SendJournal {
  /** Chunks already confirmed (by earlier runs, then by this one). */
  readonly confirmed = new Map<number, JournalChunk>();
  /** When the send was first started. */
  readonly startedAt: Date;
  readonly #fd: number;

  private constructor(
    readonly path: string,
    header: JournalHeader,
    existing: JournalChunk[],
  ) {
    for (const chunk of existing) this.confirmed.set(chunk.chunk, chunk);
    this.startedAt = new Date(header.startedAt);
    this.#fd = fs.openSync(this.path, "a");
  }

  /** Opens (or starts) the journal of the send `header` describes, in `stateDir`. */
  static open(stateDir: string, header: JournalHeader): SendJournal {
    fs.mkdirSync(stateDir, { recursive: true });
    const file = path.join(stateDir, `${header.keyPrefix}.ndjson`);
    const existing = SendJournal.#read(file);
    if (existing === undefined) {
      fs.writeFileSync(file, `${JSON.stringify(header)}\n`);
      return new SendJournal(file, header, []);
    }
    // A line torn by a crash would swallow the next record: start on a fresh line.
    if (!existing.endsWithNewline) fs.appendFileSync(file, "\n");
    return new SendJournal(file, existing.header, existing.chunks);
  }

  /** Messages in the confirmed chunks. */
  get confirmedMessages(): number {
    let total = 0;
    for (const chunk of this.confirmed.values()) total += chunk.count;
    return total;
  }

  /** Records a confirmed chunk (one line, written at once). */
  record(chunk: JournalChunk): void {
    this.confirmed.set(chunk.chunk, chunk);
    fs.writeSync(this.#fd, `${JSON.stringify(chunk)}\n`);
  }

  close(): void {
    fs.closeSync(this.#fd);
  }

  static #read(file: string): { header: JournalHeader; chunks: JournalChunk[]; endsWithNewline: boolean } | undefined {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const [first, ...rest] = text.split("\n");
    let header: JournalHeader;
    try {
      header = JSON.parse(first) as JournalHeader;
    } catch {
      return undefined; // torn before the header was complete: start again
    }
    const chunks: JournalChunk[] = [];
    for (const line of rest) {
      try {
        const chunk = JSON.parse(line) as JournalChunk;
        if (Number.isInteger(chunk.chunk) && Number.isInteger(chunk.count)) chunks.push(chunk);
      } catch {
        // a torn last line
      }
    }
    return { header, chunks, endsWithNewline: text.endsWith("\n") };
  }
}
