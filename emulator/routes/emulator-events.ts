import { toFieldErrors } from "../../schemas";
import { parseJsonBody, problem, validationProblem, jsonReply, type Reply } from "../http";
import { EmitEventRequest, MAX_EVENT_BODY_BYTES } from "../operations";
import { buildEvent, eventData } from "../delivery";
import type { EmulatorHandlers, RouteContext } from "./route-context";

/**
 * `POST /_emulator/events`: builds an event and delivers it to every endpoint subscribed to
 * its type. Answers 200 once each delivery's first attempt is done, with those attempts (an
 * empty array when nobody subscribes), the event id in `X-Emulator-Event-Id` and the retry
 * schedule in seconds in `X-Emulator-Retry-Schedule` (`1,2,4,8,16`; empty for none); failed
 * attempts are records too, not errors, and retries follow on the schedule.
 */
export async function emitEvent({ req, body, store, deliveries }: RouteContext): Promise<Reply> {
  if (body.length > MAX_EVENT_BODY_BYTES) {
    throw problem(
      413,
      "payload_too_large",
      `An event body may hold at most ${MAX_EVENT_BODY_BYTES / 1024} KiB; this one has ${body.length} bytes.`,
    );
  }
  const parsed = EmitEventRequest.safeParse(parseJsonBody(req, body));
  if (!parsed.success) throw validationProblem(toFieldErrors(parsed.error.issues));
  const event = buildEvent(parsed.data.type, eventData(parsed.data.data));
  const attempts = await deliveries.emit(event, store.subscribersOf(parsed.data.type));
  return jsonReply(200, attempts, {
    "X-Emulator-Event-Id": event.id,
    // So that a client showing the first attempts can say when the retries come.
    "X-Emulator-Retry-Schedule": deliveries.retrySchedule.join(","),
  });
}

/** This file's handlers of `EMULATOR_OPERATIONS`, by operation name. */
export const emulatorEventHandlers = { emitEvent } satisfies EmulatorHandlers;
