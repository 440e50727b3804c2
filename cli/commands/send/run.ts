import type { IdentityKey } from "../../../client/identity-key";
import type { MessagingClient } from "../../../client/messaging-client";
import { SETTINGS } from "../../../client/settings";
import { FileError } from "../../../message-file";
import { createProgress } from "./progress";
import type { SendOptions } from "./options";
import { planSend, type SendPlan } from "./plan";
import { finishInFlightCalls, sendPlannedCalls } from "./calls";
import { isStale, type InFlightCall } from "./in-flight";
import type { SendJournal } from "./journal";
import { listSent, reportFailure, type SendReport } from "./report";
import type { SignalWatch } from "./signals";

/** A send ready to run: its options, output, journal (when one can be kept) and client (unless a dry run). */
export interface Run {
  readonly options: SendOptions;
  readonly signals: SignalWatch;
  readonly report: SendReport;
  readonly finish: string;
  readonly keyPrefix: string;
  readonly sendId: string;
  /** What message ids and call keys are keyed by: from the API key. */
  readonly key: IdentityKey;
  /** A message's identity: as the journal writes it, else the current version. */
  readonly messageId: (message: unknown) => string;
  readonly client: MessagingClient | undefined;
  readonly journal: SendJournal | undefined;
}

/**
 * The run, against an open journal: refuses what the user must decide (a stale call in
 * flight, sent lines changed since), pass 1 (check and plan), the calls left in flight, pass 2
 * (the planned calls), then the report.
 * @returns the exit code
 */
export async function sendWith(run: Run): Promise<number> {
  const { options, signals, report, journal } = run;
  const inFlight = journal?.inFlight ?? [];
  const stale = inFlight.filter((call) => isStale(call));
  if (stale.length > 0 && options.inFlight === undefined) {
    const lines = stale.flatMap((call) => call.locations.map((location) => ({ location, sentAt: `${call.startedAt}, in flight` })));
    return report.end(
      { status: "refused", reason: "stale_in_flight", inFlight: lines },
      `messaging send: ${stale.length} call(s) were left in flight more than 24 hours ago, longer than the service is assumed to ` +
        `remember keys: sending them again could deliver their messages twice.\n${listSent(lines)}\nNothing was sent. Check whether ` +
        "these messages arrived, then run again with --in-flight sent (record them as sent) or --in-flight resend (send them again).\n",
      1,
    );
  }

  // Pass 1: check every message and plan the run against what is sent or in flight.
  const sent = new Map(journal?.sent ?? []);
  for (const call of inFlight) for (const id of call.ids) sent.set(id, (sent.get(id) ?? 0) + 1);
  let plan: SendPlan;
  try {
    const planned = await planSend({
      file: options.file,
      format: options.format,
      batchSize: options.batchSize,
      keyScope: { key: run.key, prefix: run.keyPrefix, stream: options.stream, sendId: run.sendId },
      messageId: run.messageId,
      sent,
      stopped: () => signals.received !== undefined,
    });
    if (planned === "stopped") {
      return report.end(
        { status: "interrupted", sentMessages: 0 },
        `messaging send: ${signals.received!.message} while checking the file; nothing was sent\n`,
        signals.received!.exitCode,
      );
    }
    if ("invalid" in planned) {
      return report.end(
        { status: "invalid", errors: planned.invalid.fieldErrors },
        `messaging send: ${planned.invalid.message}\nnothing was sent\n`,
        1,
      );
    }
    plan = planned;
  } catch (error) {
    if (!(error instanceof FileError)) throw error;
    return report.end(
      { status: "invalid", error: error.message },
      `messaging send: ${options.file}: ${error.message}\nnothing was sent\n`,
      1,
    );
  }
  if (plan.messages === 0) {
    return report.end(
      { status: "invalid", error: "no messages found" },
      `messaging send: ${options.file}: no messages found\nnothing was sent\n`,
      1,
    );
  }
  const toSend = plan.messages - plan.skipped;
  const counts = { messages: plan.messages, calls: plan.calls.length, skippedMessages: plan.skipped, journal: journal?.directory };

  // Sent lines that changed or went: the one case the user decides.
  const changed = journal && plan.missing.size > 0 ? journal.whereSent(plan.missing) : [];
  if (changed.length > 0 && !options.allowChanged) {
    return report.end(
      { ...counts, status: "refused", reason: "changed_since_sent", changed, unsentMessages: toSend },
      `messaging send: ${changed.length} message(s) sent from ${options.file} earlier are no longer in it (changed or removed since):\n` +
        `${listSent(changed)}\nThe file now holds ${toSend} message(s) not sent yet; if some are new versions of the lines above, ` +
        "sending them delivers a second text to those recipients.\nNothing was sent. To send the messages not sent yet, new versions " +
        "included, add --allow-changed (to leave a changed line unsent, restore it as it was sent, or delete it).\n",
      1,
    );
  }
  // A send nobody meant (the wrong file, a --resend too many) is stopped before any call.
  const outgoing = toSend + messagesIn(inFlight);
  if (options.maxMessages !== undefined && outgoing > options.maxMessages) {
    return report.end(
      { ...counts, status: "refused", reason: "over_max_messages", toSend: outgoing, maxMessages: options.maxMessages },
      `messaging send: this run would send ${outgoing} message(s) from ${options.file}, more than --max-messages (or ` +
        `${SETTINGS.maxMessagesPerUpdate.env}) allows: ${options.maxMessages}.\nNothing was sent. If this send is meant, raise ` +
        "the limit; if not, check the file (and --resend).\n",
      1,
    );
  }
  if (options.dryRun) {
    const already = plan.skipped > 0 ? `; ${plan.skipped} already sent by earlier runs` : "";
    return report.end(
      { ...counts, status: "dry_run", toSend, changed },
      `dry run: ${plan.messages} valid message(s)${already}; ${toSend} to send in ${plan.calls.length} call(s) on stream '${options.stream}'` +
        `${inFlight.length > 0 ? `, after finishing ${inFlight.length} call(s) left in flight` : ""}; nothing sent\n`,
      0,
    );
  }
  if (toSend === 0 && inFlight.length === 0) {
    return report.end(
      { ...counts, status: "already_sent", sentMessages: 0 },
      `already sent: all ${plan.messages} message(s) of ${options.file} were sent by earlier runs (journal ${journal?.directory}); nothing to do.\n` +
        "To send them again, add --resend.\n",
      0,
    );
  }

  // Calls a killed run left unanswered go first, exactly as they were sent.
  const client = run.client!;
  const inFlightMessages = messagesIn(inFlight);
  const confirmedBefore = Math.max(0, plan.skipped - inFlightMessages);
  if (plan.skipped > 0) {
    const pending = inFlightMessages > 0 ? `, ${inFlightMessages} were left in flight (finished first, under their keys)` : "";
    report.note(`continuing: ${confirmedBefore} of ${plan.messages} message(s) were sent by earlier runs${pending}; sending the rest\n`);
  }
  const inFlightResult = await finishInFlightCalls(client, journal, inFlight, options.inFlight, signals);
  if (inFlightResult.failure !== undefined) {
    // Until finished, a call in flight counts as not sent.
    const sentSoFar = { ...counts, sentMessages: confirmedBefore + inFlightResult.finishedMessages, total: plan.messages };
    return reportFailure(report, inFlightResult.failure, sentSoFar, run.finish);
  }
  if (changed.length > 0) journal!.letGo([...plan.missing].flatMap(([id, copies]) => Array<string>(copies).fill(id)));

  // Pass 2: the planned calls.
  const progress = createProgress(plan.messages, plan.skipped);
  const result = await sendPlannedCalls(
    client,
    journal,
    plan,
    run.messageId,
    options,
    signals,
    (sentNow) => progress.update(plan.skipped + sentNow),
    (reason, delayMs) => progress.retry(reason, delayMs),
  );
  progress.stop();
  const outcome = {
    ...counts,
    sentMessages: plan.skipped + result.sentNow,
    sentNow: result.sentNow,
    alreadyAccepted: result.alreadyAccepted,
    finishedInFlight: inFlightMessages,
    changed,
    batchIds: result.batchIds,
  };
  if (result.failure !== undefined) return reportFailure(report, result.failure, { ...outcome, total: plan.messages }, run.finish);
  const perSecond = Math.round(result.sentNow / Math.max(report.seconds, 0.001));
  const earlier = [
    result.alreadyAccepted > 0
      ? `${result.alreadyAccepted} of them the service had already accepted (an earlier run's calls, answered from its idempotency record: not sent again)`
      : "",
    confirmedBefore > 0 ? `${confirmedBefore} were sent by earlier runs` : "",
    inFlightMessages > 0 ? `${inFlightMessages} left in flight were finished under their keys` : "",
  ].filter(Boolean);
  return report.end(
    { ...outcome, status: "sent", messagesPerSecond: perSecond },
    `sent ${result.sentNow} message(s) in ${plan.calls.length} call(s) in ${report.seconds.toFixed(1)} s (${perSecond} msg/s)` +
      `${earlier.length > 0 ? `; ${earlier.join(", ")}` : ""}: all ${plan.messages} message(s) of ${options.file} are sent\n` +
      (changed.length > 0
        ? `${changed.length} message(s) sent earlier had changed or gone since (--allow-changed):\n${listSent(changed)}\n`
        : ""),
    0,
  );
}

/** Messages in the given calls. */
function messagesIn(calls: InFlightCall[]): number {
  return calls.reduce((total, call) => total + call.ids.length, 0);
}
