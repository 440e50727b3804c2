// A batch's messages file, read with `messaging send`'s reader: by `check` to judge it, then twice to send it (plan, then send).
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import type * as pulumi from "@pulumi/pulumi";
import { InvalidMessages } from "../../../schemas";
import type { Message } from "../../../schemas/types";
import { checkedValue } from "../../../message-file/checked-entry";
import { fileFormat, FileError, readEntries, type DeclaredStream, type FileFormat } from "../../../message-file";
import { MessagesDigest } from "../../messages-digest";
import { canonicalJson } from "../../../schemas/canonical-json";
import { BatchSizeCount } from "./blast-radius";
import { tooLargeForOneCall } from "../../../schemas/one-call";
import { assetFilePath, type FileAsset } from "./file-asset";
import type { MessagesFileRead } from "./schema";

const PROPERTY = "messagesFile";

function formatOf(file: string): FileFormat | pulumi.dynamic.CheckFailure {
  const format = fileFormat(file, undefined);
  if (format === "ndjson" || format === "json" || format === "csv") return format;
  return { property: PROPERTY, reason: `${file}: the format cannot be told from the extension: name it .ndjson, .jsonl, .json or .csv` };
}

// A missing or unreadable file is said by name before anything else.
async function readable(file: string): Promise<string | undefined> {
  try {
    await (await open(file, "r")).close();
    return undefined;
  } catch (error) {
    return `${file} cannot be read: ${(error as Error).message}`;
  }
}

/** Judges every message of the file against `stream`, as `messaging send` does: what `check` records, or failures naming lines. */
export async function readMessagesFile(
  asset: FileAsset,
  stream: string,
): Promise<{ read: MessagesFileRead } | { failures: pulumi.dynamic.CheckFailure[] }> {
  const file = assetFilePath(asset);
  const format = formatOf(file);
  if (typeof format !== "string") return { failures: [format] };
  const unreadable = await readable(file);
  if (unreadable) return { failures: [{ property: PROPERTY, reason: unreadable }] };

  const invalid = new InvalidMessages("(file)");
  const digest = new MessagesDigest();
  const size = new BatchSizeCount(stream);
  const bytes = createHash("sha256");
  let declared: DeclaredStream | undefined;
  const failures: pulumi.dynamic.CheckFailure[] = [];
  try {
    for await (const entries of readEntries(
      file,
      format,
      (chunk) => bytes.update(chunk),
      (found) => (declared = found),
    )) {
      for (const entry of entries) {
        const value = checkedValue(entry, invalid);
        if (value === undefined) continue;
        const tooLarge = tooLargeForOneCall(value, { stream, source: entry.source });
        if (tooLarge !== undefined) invalid.addReason(entry.location, `${tooLarge}: shorten it or split it`);
        const text = canonicalJson(value);
        digest.addCanonical(text);
        size.add(value, text);
      }
      entries.length = 0;
    }
  } catch (error) {
    if (!(error instanceof FileError)) throw error;
    return { failures: [{ property: PROPERTY, reason: `${file}: ${error.message}` }] };
  }
  const errors = invalid.fieldErrors();
  if (errors) {
    for (const [where, reasons] of Object.entries(errors))
      failures.push({ property: PROPERTY, reason: `${file}: ${where}: ${reasons.join("; ")}` });
  }
  if (declared !== undefined && declared.stream !== stream) {
    failures.push({
      property: PROPERTY,
      reason: `${file}: line ${declared.line}: the file's "stream" is '${declared.stream}' but the batch's stream is '${stream}': remove one, or make them agree`,
    });
  }
  if (failures.length === 0 && digest.count === 0) failures.push({ property: PROPERTY, reason: `${file}: no messages found` });
  const hash = bytes.digest("hex");
  if (failures.length === 0 && asset.hash !== undefined && asset.hash !== hash) {
    failures.push({
      property: PROPERTY,
      reason: `${file} changed while it was being read (its hash is no longer the engine's): run again`,
    });
  }
  if (failures.length > 0) return { failures };
  const { calls, recipients, recipientsExact } = size.finish();
  return { read: { hash, stream, digest: digest.finish(), count: digest.count, calls, recipients, recipientsExact } };
}

/** The file is not what `check` read, or changed during the send: raised before any call that would carry an unchecked message. */
export class MessagesFileChanged extends Error {}

/**
 * The file's messages, read again to send them. What they must be is the caller's to check (`call-plan.ts`): a line that cannot
 * be read now is a change.
 * @throws MessagesFileChanged, or a `FileError` naming the path
 */
export async function* messagesOfFile(asset: FileAsset): AsyncGenerator<Message, void, undefined> {
  const file = assetFilePath(asset);
  const format = formatOf(file);
  if (typeof format !== "string") throw new FileError(format.reason);
  const unreadable = await readable(file);
  if (unreadable) throw new FileError(unreadable);
  for await (const entries of readEntries(file, format)) {
    const messages: Message[] = [];
    for (const entry of entries) {
      if (entry.problem) throw new MessagesFileChanged(`${file} changed since it was checked (${entry.location} cannot be read now)`);
      messages.push(entry.value as Message);
    }
    // Entries let go before the messages are handed over (see cli/commands/send/plan.ts `plannedMessages`).
    entries.length = 0;
    yield* messages;
  }
}
