import type { MessagingClient } from "../../../client/messaging-client";
import { SEND_PLANNED } from "../../../client/send-messages";
import { isRefusedOutright } from "../../../errors/messaging-error";
import { isStale, type InFlightCall } from "./in-flight";
import type { SendJournal } from "./journal";
import type { SendOptions } from "./options";
import { plannedMessages, type SendPlan } from "./plan";
import type { SignalWatch } from "./signals";

/**
 * Finishes the calls a killed run left in flight, in the order they went out: the same
 * messages under the same key, so the service answers a call it had from its record instead
 * of processing it again. A call past the key memory is recorded as sent without a request
 * when the user said `--in-flight sent`. Stops at the first failure (a call the service
 * refused outright did nothing, so its record is cleared) or signal.
 * @returns messages finished, and the failure that stopped it, if any
 */
export async function finishInFlightCalls(
  client: MessagingClient,
  journal: SendJournal | undefined,
  calls: InFlightCall[],
  choice: "sent" | "resend" | undefined,
  signals: SignalWatch,
): Promise<{ finishedMessages: number; failure?: unknown }> {
  let finishedMessages = 0;
  for (const call of calls) {
    if (signals.received) return { finishedMessages, failure: signals.received };
    try {
      if (choice === "sent" && isStale(call)) {
        journal!.recordSent(call.key, null, call.ids, call.locations);
      } else {
        const result = await client.sendMessageBatch(
          { stream: call.stream, messages: call.messages },
          { idempotencyKey: call.key, signal: signals.cancel.signal },
        );
        journal!.recordSent(call.key, result.id ?? null, call.ids, call.locations);
      }
    } catch (error) {
      if (isRefusedOutright(error)) journal!.dropInFlight(call.key);
      return { finishedMessages, failure: error };
    }
    finishedMessages += call.ids.length;
  }
  return { finishedMessages };
}

/**
 * Pass 2: sends the planned calls through the client's internal entry point, writing each
 * call's in-flight record before its request and its journal line once it is confirmed.
 * @returns messages sent (and how many of them the service had accepted before: its answer was
 *   replayed from its idempotency record), the service's batch ids by call, and the failure
 *   that stopped it, if any
 */
export async function sendPlannedCalls(
  client: MessagingClient,
  journal: SendJournal | undefined,
  plan: SendPlan,
  messageId: (message: unknown) => string,
  options: SendOptions,
  signals: SignalWatch,
  onSent: (sentNow: number) => void,
  onRetry: (reason: string, delayMs: number) => void,
): Promise<{ sentNow: number; alreadyAccepted: number; batchIds: Array<string | null>; failure?: unknown }> {
  // Each call's identities and places, from the moment its messages are read until it is confirmed.
  const places = new Map<number, { ids: string[]; locations: string[] }>();
  const batchIds: Array<string | null> = [];
  let sentNow = 0;
  // Messages of calls the service answered from its idempotency record: accepted by an earlier run.
  let alreadyAccepted = 0;
  const messages = plannedMessages({ file: options.file, format: options.format, messageId }, plan, (call, id, location) => {
    let place = places.get(call);
    if (!place) places.set(call, (place = { ids: [], locations: [] }));
    place.ids.push(id);
    place.locations.push(location);
  });
  try {
    await client[SEND_PLANNED](
      messages,
      {
        stream: options.stream,
        batchSize: options.batchSize,
        concurrency: options.concurrency,
        signal: signals.cancel.signal,
        stopSignal: signals.stop.signal,
        onProgress: ({ batch }) => {
          const place = places.get(batch.index)!;
          journal?.recordSent(batch.idempotencyKey, batch.id ?? null, place.ids, place.locations);
          places.delete(batch.index);
          batchIds[batch.index] = batch.id ?? null;
          sentNow += batch.count;
          onSent(sentNow);
        },
        onRetry: ({ reason, delayMs }) => onRetry(reason, delayMs),
      },
      {
        prevalidated: true,
        keyOf: (index) => plan.calls[index].key,
        beforeSend: (chunk, key) => {
          const place = places.get(chunk.index)!;
          journal?.recordInFlight({ key, stream: options.stream, startedAt: new Date().toISOString(), ...place, messages: chunk.items });
        },
        onReplayed: (batch) => {
          alreadyAccepted += batch.count;
        },
        onChunkFailed: (_chunk, key, error) => {
          if (isRefusedOutright(error)) journal?.dropInFlight(key);
        },
      },
    );
  } catch (error) {
    return { sentNow, alreadyAccepted, batchIds, failure: error };
  }
  return { sentNow, alreadyAccepted, batchIds };
}
