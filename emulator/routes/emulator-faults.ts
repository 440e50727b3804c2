import { toFieldErrors } from "../../schemas";
import { parseJsonBody, validationProblem, jsonReply, type Reply } from "../http";
import { parseFaultSettings } from "../faults";
import type { EmulatorHandlers, RouteContext } from "./route-context";

/**
 * `POST /_emulator/faults` with `{ failureRate, seed?, kinds? }` (a random mix) or
 * `{ script: [...] }` (exactly these answers for the next requests): sets fault injection for
 * /v1 requests and answers with the settings in force (including the seed picked when none
 * was given, so a run can be repeated). `{ "failureRate": 0 }` turns it off.
 */
export function setFaults({ req, body, faults }: RouteContext): Reply {
  const parsed = parseFaultSettings(parseJsonBody(req, body));
  if (!parsed.success) throw validationProblem(toFieldErrors(parsed.error.issues));
  return jsonReply(200, faults.configure(parsed.data));
}

/** `GET /_emulator/faults`: the settings in force, and `log`: what each /v1 request met since they were set. */
export function getFaults({ faults }: RouteContext): Reply {
  return jsonReply(200, { ...faults.settings(), log: faults.log() });
}

/** This file's handlers of `EMULATOR_OPERATIONS`, by operation name. */
export const emulatorFaultHandlers = { getFaults, setFaults } satisfies EmulatorHandlers;
