import { isApiError } from "../../../errors/messaging-error";
import { parseCommandArgs } from "../../command-args";
import { COMMANDS } from "..";
import { describeAttempt } from "../../delivery-line";
import { didYouMean } from "../../../schemas/did-you-mean";
import type { EmulatorClient } from "../../../emulator/operations";
import { withEmulator, describeRefusal, orRefusal } from "../../emulator-connection";
import { EXIT } from "../../exit-codes";
import { processIo, type CommandIo } from "../../command-io";
import { programName } from "../../program-name";

/** Where the command writes. */
interface ResendArgs {
  readonly eventId: string;
  readonly endpoint?: string;
}

function parse(argv: string[]): ResendArgs | string {
  const parsed = parseCommandArgs(argv, COMMANDS.events.options, true);
  if ("error" in parsed) return parsed.error;
  const [action, ...rest] = parsed.positionals;
  if (action === undefined) return "give an action: resend <event id>";
  if (action !== "resend") return `unknown action '${action}'${didYouMean(action, ["resend"])}: the one action is resend <event id>`;
  if (rest.length !== 1 || rest[0].trim() === "") return "give exactly one event id (evt_…), as trigger, listen and the inspector print it";
  if (parsed.values.endpoint === "") return "--endpoint must not be empty";
  return { eventId: rest[0], endpoint: parsed.values.endpoint };
}

/**
 * `messaging events resend <event id>`, as `stripe events resend`: through the redelivery
 * route, as the inspector's button.
 * @returns 0 every attempt delivered; 1 one failed, the event is unknown, or the emulator
 *   refused or could not be reached; 2 bad arguments or settings
 */
export async function runEventsCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CommandIo = processIo): Promise<number> {
  return withEmulator("events", parse(argv), env, io, (args, emulator) => resend(args, emulator, io));
}

/** Resends each delivery of the event (to one endpoint with `--endpoint`). */
async function resend(args: ResendArgs, emulator: EmulatorClient, io: CommandIo): Promise<number> {
  const events = await orRefusal(emulator.listEvents());
  if (isApiError(events)) {
    io.stderr(`messaging events: listing events: the emulator answered ${describeRefusal(events)}\n`);
    return EXIT.failed;
  }
  const record = events.find((item) => item.event.id === args.eventId);
  if (record === undefined) {
    const ids = events.map((item) => item.event.id);
    io.stderr(
      `messaging events: no event ${args.eventId} in the emulator at ${emulator.baseUrl}${didYouMean(args.eventId, ids)}` +
        ` (it keeps the most recent 1,000 events; ${programName()} trigger and listen print their ids)\n`,
    );
    return EXIT.failed;
  }
  // Each delivery of the event goes to one endpoint: its attempts say which.
  const listed = await orRefusal(emulator.listDeliveries({ event: args.eventId }));
  if (isApiError(listed)) {
    io.stderr(`messaging events: listing deliveries: the emulator answered ${describeRefusal(listed)}\n`);
    return EXIT.failed;
  }
  const endpointOf = new Map(listed.attempts.map((attempt) => [attempt.id, attempt.endpointId]));
  const deliveryIds = record.deliveryIds.filter((id) => args.endpoint === undefined || endpointOf.get(id) === args.endpoint);
  const type = record.event.type ?? "no type";
  if (deliveryIds.length === 0) {
    io.stderr(
      args.endpoint === undefined
        ? `messaging events: event ${args.eventId} (${type}) went to no endpoint: nothing to resend\n`
        : `messaging events: event ${args.eventId} (${type}) was not delivered to ${args.endpoint}` +
            `${didYouMean(args.endpoint, new Set(endpointOf.values()))}\n`,
    );
    return EXIT.failed;
  }
  io.stdout(`event ${args.eventId} (${type}): resending to ${deliveryIds.length} endpoint(s)\n`);
  let delivered = 0;
  for (const id of deliveryIds) {
    const attempt = await orRefusal(emulator.retryDelivery(id));
    if (isApiError(attempt)) {
      io.stdout(`  ${id}: the emulator answered ${describeRefusal(attempt)}\n`);
      continue;
    }
    io.stdout(describeAttempt(attempt));
    if (attempt.outcome === "delivered") delivered++;
  }
  const failed = deliveryIds.length - delivered;
  io.stdout(`${delivered} delivered, ${failed} failed\n`);
  return failed > 0 ? EXIT.failed : EXIT.ok;
}

/** The registry's entry points (`CommandModule`). */
export const run = (argv: string[]): Promise<number> => runEventsCommand(argv);
export const help = async (): Promise<string> => (await import("./help")).HELP;
