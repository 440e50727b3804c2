import { setTimeout as sleep } from "node:timers/promises";
import type { EmulatorClient } from "../../../emulator/operations";
import { isApiError } from "../../../errors/messaging-error";
import { findJsonHazards, jsonHazardField } from "../../../schemas";
import { KNOWN_EVENT_TYPES } from "../../../schemas/types";
import { parseCommandArgs } from "../../command-args";
import { COMMANDS } from "..";
import { describeAttempt as describe } from "../../delivery-line";
import { closestMatch } from "../../../schemas/did-you-mean";
import { withEmulator, describeRefusal, orRefusal } from "../../emulator-connection";
import { EXIT } from "../../exit-codes";
import { sampleObject } from "../../sample-events";
import { processIo, type CommandIo } from "../../command-io";

/** How often the retries of a delivery are looked up with --wait, in milliseconds. */
const POLL_MS = 200;

/** Where the command writes. */
interface TriggerArgs {
  readonly type: string;
  /** As given with --data / --previous; undefined: a sample for a named type. */
  readonly data?: Record<string, unknown>;
  readonly wait: boolean;
  readonly allowUnknownType: boolean;
}

function jsonObject(flag: string, text: string, allowNull: boolean): Record<string, unknown> | null | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${flag} is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (value === null && allowNull) return null;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${flag} must be a JSON object${allowNull ? " or null" : ""}`;
  const hazard = findJsonHazards(value)[0];
  if (hazard !== undefined) return `${flag}: ${jsonHazardField(hazard)}: ${hazard.message}`;
  return value as Record<string, unknown>;
}

function parse(argv: string[]): TriggerArgs | string {
  const parsed = parseCommandArgs(argv, COMMANDS.trigger.options, true);
  if ("error" in parsed) return parsed.error;
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0].trim() === "") return "give exactly one event type, e.g. payment.succeeded";
  if (values.wait && values["no-wait"]) return "give --wait or --no-wait, not both";
  const data = values.data === undefined ? undefined : jsonObject("--data", values.data, false);
  if (typeof data === "string") return data;
  const previous = values.previous === undefined ? undefined : jsonObject("--previous", values.previous, true);
  if (typeof previous === "string") return previous;
  const type = positionals[0];
  const object = data !== undefined && data !== null && "object" in data ? data.object : (data ?? sampleObject(type) ?? {});
  const payload = previous === undefined ? (data ?? undefined) : { object, previous };
  return { type, data: payload ?? undefined, wait: values.wait === true, allowUnknownType: values["allow-unknown-type"] === true };
}

/**
 * The event types this emulator knows: the named ones and every type an endpoint subscribes
 * to (an endpoint may subscribe to any string). Undefined when the listing failed.
 */
async function knownTypes(emulator: EmulatorClient): Promise<Set<string> | undefined> {
  const endpoints = await orRefusal(emulator.listEndpoints());
  if (isApiError(endpoints)) return undefined;
  return new Set([...KNOWN_EVENT_TYPES, ...endpoints.flatMap((endpoint) => endpoint.events)]);
}

/**
 * `messaging trigger` (options: `definition.ts`). A type neither named nor subscribed to is
 * refused, with the closest known type, unless `--allow-unknown-type`.
 * @returns 0 every delivery succeeded (or none was due); 1 one failed or is still being
 *   retried, or the emulator refused or could not be reached; 2 bad arguments or settings
 */
export async function runTriggerCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CommandIo = processIo): Promise<number> {
  return withEmulator("trigger", parse(argv), env, io, (args, emulator) => trigger(args, emulator, io));
}

/** Emits the event, then reports its first attempts and, with `--wait`, its retries. */
async function trigger(args: TriggerArgs, emulator: EmulatorClient, io: CommandIo): Promise<number> {
  if (!args.allowUnknownType && !(KNOWN_EVENT_TYPES as readonly string[]).includes(args.type)) {
    const known = await knownTypes(emulator);
    if (known !== undefined && !known.has(args.type)) {
      const match = closestMatch(args.type, known);
      io.stderr(
        `messaging trigger: unknown event type '${args.type}'${match ? `; did you mean ${match}?` : ""}\n` +
          `  known here: ${[...known].join(", ")}\n` +
          "  to emit it anyway (an endpoint may subscribe to any type), add --allow-unknown-type\n",
      );
      return EXIT.usage;
    }
  }
  const emitted = await orRefusal(
    emulator.emitEvent({ type: args.type, ...(args.data !== undefined ? { data: args.data } : sampleData(args.type)) }),
  );
  if (isApiError(emitted)) {
    io.stderr(`messaging trigger: the emulator answered ${describeRefusal(emitted)}\n`);
    return EXIT.failed;
  }
  const first = emitted.attempts;
  const eventId = emitted.eventId || (first[0]?.eventId ?? "");
  io.stdout(`event ${eventId} (${args.type}): ${first.length} endpoint(s) subscribed\n`);
  if (first.length === 0) {
    io.stdout("  no endpoint subscribes to this type: create one with messaging listen --forward-to <url> or messaging endpoints create\n");
    return EXIT.ok;
  }
  for (const attempt of first) io.stdout(describe(attempt));

  const latest = new Map(first.map((attempt) => [attempt.id, attempt]));
  const pending = () => [...latest.values()].filter((attempt) => attempt.outcome === "retry_scheduled").length;
  if (!args.wait && pending() > 0) {
    const schedule = emitted.retrySchedule;
    io.stdout(
      `  retries follow ${schedule.length > 0 ? `after ${schedule.join(", ")} s` : "on the emulator's schedule"}; ` +
        "follow them with --wait, messaging listen or the inspector page (/_emulator/)\n",
    );
  }
  const printed = new Set(first.map((attempt) => `${attempt.id}#${attempt.attempt}`));
  while (args.wait && pending() > 0) {
    await sleep(POLL_MS);
    const listed = await orRefusal(emulator.listDeliveries({ event: eventId }));
    if (isApiError(listed)) {
      io.stderr(`messaging trigger: listing deliveries: the emulator answered ${describeRefusal(listed)}\n`);
      return EXIT.failed;
    }
    for (const attempt of listed.attempts) {
      const key = `${attempt.id}#${attempt.attempt}`;
      if (printed.has(key)) continue;
      printed.add(key);
      io.stdout(describe(attempt));
      const known = latest.get(attempt.id);
      if (known === undefined || attempt.attempt > known.attempt) latest.set(attempt.id, attempt);
    }
  }
  const failed = [...latest.values()].filter((attempt) => attempt.outcome === "failed").length;
  const retrying = pending();
  io.stdout(`${latest.size - failed - retrying} delivered, ${failed} failed${retrying > 0 ? `, ${retrying} to be retried` : ""}\n`);
  return failed > 0 || retrying > 0 ? EXIT.failed : EXIT.ok;
}

// A named type without --data gets a sample object; any other type the emulator's `{}`.
function sampleData(type: string): { data?: Record<string, unknown> } {
  const object = sampleObject(type);
  return object === undefined ? {} : { data: { object } };
}

/** The registry's entry points (`CommandModule`). */
export const run = (argv: string[]): Promise<number> => runTriggerCommand(argv);
export const help = async (): Promise<string> => (await import("./help")).HELP;
