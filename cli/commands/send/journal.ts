import { hash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { IdentityKey } from "../../../client/identity-key";
import { messageIdentity, type MessageIdVersion } from "../../../message-file/identity";
import { InFlightRecords, parseRecord, readIfExists, type InFlightCall } from "./in-flight";

/**
 * The journal format this version writes: 3, its message ids keyed (`m2`) by the API key
 * whose fingerprint the header records. It also reads 2 (ids `m1`, unkeyed), from earlier releases.
 */
const JOURNAL_VERSION = 3;
const MESSAGE_IDS: Readonly<Record<number, MessageIdVersion>> = { 2: "m1", 3: "m2" };

/** What a journal is kept for: one file, sent to one service, on one stream, by one send. */
export interface SendScope {
  /** The file's absolute path. */
  readonly file: string;
  readonly baseUrl: string;
  readonly stream: string;
  /** `""` for the file's send; the id of a `--resend`. */
  readonly sendId: string;
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

/** A sent message no longer in the file: where it was, and when it was sent. */
export interface SentElsewhere {
  readonly location: string;
  readonly sentAt: string;
}

interface Header {
  readonly journal: "pulumi-messaging send";
  readonly version: number;
  readonly messageIds: string;
  /** Version 3: the fingerprint of the identity key (client/identity-key.ts) the ids are made with. */
  readonly keyFingerprint?: string;
  readonly file: string;
  readonly baseUrl: string;
  readonly stream: string;
  readonly sendId: string;
  readonly startedAt: string;
}

/** One line after the header: a call the service confirmed, or sent messages the user let go (`--allow-changed`). */
type JournalRecord =
  | { sent: { key: string; batchId: string | null; at: string; ids: string[]; locations: string[] } }
  | { letGo: { at: string; ids: string[] } };

/** The journal of a send could not be used; the message says why and what to do. */
export class JournalError extends Error {}

/**
 * The record of what a send has sent: a directory per {@link SendScope} holding
 * `journal.ndjson` (a header line, then one line per confirmed call with its messages'
 * identities) and `in-flight/` (one file per call whose request went out unanswered).
 *
 * Order of writes, so that a kill at any point loses nothing and sends nothing twice: a
 * call's in-flight file is written before its request; once confirmed, its journal line is
 * appended, then the in-flight file removed. A call found in flight is finished under its
 * key with its recorded messages; one found both confirmed and in flight is only tidied. A
 * torn last line or in-flight file (a crash mid-write) is ignored: the request it belonged to
 * had not been sent, or its call is still in flight.
 */
export class SendJournal {
  /** Messages sent before this run: identity → copies sent (copies the user let go with `--allow-changed` excluded). */
  readonly sent = new Map<string, number>();
  /** Messages in confirmed calls, every copy counted. */
  sentMessages = 0;
  readonly inFlight: InFlightCall[] = [];
  readonly startedAt: Date;
  /** The identity of a message, as this journal's records write it. */
  readonly messageId: (message: unknown) => string;
  readonly #fd: number;
  readonly #inFlight: InFlightRecords;

  private constructor(
    readonly directory: string,
    readonly journalFile: string,
    startedAt: string,
    messageId: (message: unknown) => string,
  ) {
    this.startedAt = new Date(startedAt);
    this.messageId = messageId;
    this.#inFlight = new InFlightRecords(path.join(directory, "in-flight"));
    this.#fd = fs.openSync(journalFile, "a");
  }

  /** The directory of `scope`'s journal in `stateDir`. */
  static directoryOf(stateDir: string, scope: SendScope): string {
    const name = hash("sha256", ["pulumi-messaging send journal", scope.file, scope.baseUrl, scope.stream, scope.sendId].join("\n"));
    return path.join(stateDir, `send-${name.slice(0, 32)}`);
  }

  /** True when `scope` has a journal in `stateDir` (nothing is created). */
  static exists(stateDir: string, scope: SendScope): boolean {
    return fs.existsSync(path.join(SendJournal.directoryOf(stateDir, scope), "journal.ndjson"));
  }

  /**
   * Opens the journal of `scope` in `stateDir`, or starts one whose ids are keyed by `key`.
   * @throws JournalError when it was written by a newer version, for another scope, or under
   *   another API key
   */
  static open(stateDir: string, scope: SendScope, key: IdentityKey): SendJournal {
    const directory = SendJournal.directoryOf(stateDir, scope);
    fs.mkdirSync(directory, { recursive: true });
    const journalFile = path.join(directory, "journal.ndjson");
    const text = readIfExists(journalFile);
    const lines = text === undefined ? [] : text.split("\n");
    let header = parseRecord<Header>(lines[0] ?? "");
    if (header === undefined) {
      header = {
        journal: "pulumi-messaging send",
        version: JOURNAL_VERSION,
        messageIds: MESSAGE_IDS[JOURNAL_VERSION],
        keyFingerprint: key.fingerprint,
        ...scope,
        startedAt: new Date().toISOString(),
      };
      fs.writeFileSync(journalFile, `${JSON.stringify(header)}\n`);
    } else {
      checkHeader(journalFile, header, scope, key);
      // A line torn by a crash would swallow the next record: start on a fresh line.
      if (!text!.endsWith("\n")) fs.appendFileSync(journalFile, "\n");
    }
    const journal = new SendJournal(directory, journalFile, header.startedAt, messageIdentity(MESSAGE_IDS[header.version], key));
    const confirmedKeys = new Set<string>();
    for (const line of lines.slice(1)) {
      const record = parseRecord<JournalRecord>(line);
      if (record === undefined) continue;
      if ("sent" in record) {
        confirmedKeys.add(record.sent.key);
        journal.sentMessages += record.sent.ids.length;
        for (const id of record.sent.ids) journal.sent.set(id, (journal.sent.get(id) ?? 0) + 1);
      } else if ("letGo" in record) {
        for (const id of record.letGo.ids) journal.#forget(id);
      }
    }
    journal.inFlight.push(...journal.#inFlight.read(confirmedKeys));
    return journal;
  }

  /** Writes a call down as in flight; call before its request goes out. */
  recordInFlight(call: InFlightCall): void {
    this.#inFlight.write(call);
  }

  /** Records a confirmed call, then clears its in-flight file. */
  recordSent(key: string, batchId: string | null, ids: string[], locations: string[]): void {
    const record: JournalRecord = { sent: { key, batchId, at: new Date().toISOString(), ids, locations } };
    fs.writeSync(this.#fd, `${JSON.stringify(record)}\n`);
    // `sent` stays as read: it is what this run was planned against (and a million entries to keep).
    this.sentMessages += ids.length;
    this.dropInFlight(key);
  }

  /** Clears a call's in-flight file: the service refused it, so it did nothing. */
  dropInFlight(key: string): void {
    this.#inFlight.drop(key);
  }

  /**
   * Records that the user let these sent messages go (`--allow-changed`): they no longer stop
   * a run, and a message with the same content is sent again.
   * @param ids identities, one entry per copy
   */
  letGo(ids: string[]): void {
    if (ids.length === 0) return;
    fs.writeSync(this.#fd, `${JSON.stringify({ letGo: { at: new Date().toISOString(), ids } } satisfies JournalRecord)}\n`);
    for (const id of ids) this.#forget(id);
  }

  /**
   * Where the given sent messages were when they were sent (from the journal and the calls in
   * flight), for telling the user which lines changed.
   * @param missing identity → copies to find; not modified
   */
  whereSent(missing: ReadonlyMap<string, number>): SentElsewhere[] {
    const left = new Map(missing);
    const found: SentElsewhere[] = [];
    const take = (ids: string[], locations: string[], sentAt: string) => {
      ids.forEach((id, i) => {
        const copies = left.get(id) ?? 0;
        if (copies === 0) return;
        left.set(id, copies - 1);
        found.push({ location: locations[i] ?? "?", sentAt });
      });
    };
    for (const call of this.inFlight) take(call.ids, call.locations, `${call.startedAt}, in flight`);
    for (const line of fs.readFileSync(this.journalFile, "utf8").split("\n").slice(1)) {
      const record = parseRecord<JournalRecord>(line);
      if (record && "sent" in record) take(record.sent.ids, record.sent.locations, record.sent.at);
    }
    return found;
  }

  close(): void {
    fs.closeSync(this.#fd);
  }

  #forget(id: string): void {
    const copies = this.sent.get(id) ?? 0;
    if (copies <= 1) this.sent.delete(id);
    else this.sent.set(id, copies - 1);
  }
}

function checkHeader(file: string, header: Header, scope: SendScope, key: IdentityKey): void {
  if (header.journal !== "pulumi-messaging send" || MESSAGE_IDS[header.version] !== header.messageIds) {
    throw new JournalError(
      `${file} is a journal of another format (version ${JSON.stringify(header.version)}), written by another version of ` +
        "pulumi-messaging: use that version to finish the send, or a newer one that reads this format",
    );
  }
  if (header.file !== scope.file || header.baseUrl !== scope.baseUrl || header.stream !== scope.stream || header.sendId !== scope.sendId) {
    throw new JournalError(`${file} belongs to another send (${header.file} to ${header.baseUrl}): move it away, then run again`);
  }
  // Ids made under another key match nothing: every message would look unsent, and go again.
  if (header.version >= 3 && header.keyFingerprint !== key.fingerprint) {
    throw new JournalError(
      `${file} was written under another API key: its records of what was sent are keyed by that key, so this run cannot ` +
        "tell which messages went out. Finish the send with the API key it started with; to send the whole file again on " +
        "purpose, move the journal away",
    );
  }
}
