/**
 * `--help` of the commands whose own file has none: options, environment variables and
 * exit codes, as `messaging <command> --help` and `messaging help <command>` print them.
 * (`messaging send --help` is in `send-command.ts`, beside its options.) Defaults are the
 * emulator's own constants, so the text cannot drift from them.
 */
import { DEFAULT_DELIVERY_RETRY_SCHEDULE, DEFAULT_EMULATOR_API_KEY, DEFAULT_MAX_STORED_MESSAGES } from "../emulator";
import { KNOWN_EVENT_TYPES } from "../schemas/types";
import { exitCodesHelp } from "./exit-codes";

export const EMULATOR_HELP = `messaging emulator — a local emulator of the messaging service

usage: messaging emulator [--port N] [--host H] [--api-key KEY] [--max-stored-messages N]
                          [--delivery-retry-schedule 1,2,4]

Starts the emulator and prints one line holding its base URL once it listens; runs until
SIGINT (Ctrl-C) or SIGTERM. Its routes, statuses and the inspection routes and page
(/_emulator/…) are described in emulator/README.md.

options:
  --port N                     TCP port (default: 0, any free port: read it from the printed URL)
  --host H                     interface to listen on (default: 127.0.0.1)
  --api-key KEY                the API key requests must present (default: MESSAGING_API_KEY,
                               else ${DEFAULT_EMULATOR_API_KEY}, which is printed)
  --max-stored-messages N      messages kept for inspection; the oldest batches are evicted
                               (default: ${DEFAULT_MAX_STORED_MESSAGES}; 0 keeps none)
  --delivery-retry-schedule S  seconds between webhook delivery attempts after a failure
                               (default: ${DEFAULT_DELIVERY_RETRY_SCHEDULE.join(",")}; 0 for no retries)
  -h, --help                   this help

environment:
  MESSAGING_API_KEY  the key, when --api-key is absent (not visible to ps)

${exitCodesHelp()}`;

export const TRIGGER_HELP = `messaging trigger — emit a webhook event through a running emulator

usage: messaging trigger <event-type> [--data JSON] [--previous JSON] [--wait] [--allow-unknown-type]

Asks the emulator to emit an event of that type to every endpoint subscribed to it, then
prints each delivery's first attempt and, when one is to be retried, the retry schedule.
Without --data, a named type gets a realistic sample object (named types:
${KNOWN_EVENT_TYPES.join(", ")}). Another type is refused, with the closest
known one, unless an endpoint of the emulator subscribes to it or --allow-unknown-type is given.

options:
  --data JSON           the related object (becomes data.object), or the whole data when it
                        has an "object" member (default: a sample for a named type, else {})
  --previous JSON       the object's previous values (data.previous)
  --wait                follow the retries until each delivery is delivered or has failed
  --allow-unknown-type  emit a type that is neither named nor subscribed to
  -h, --help            this help

environment:
  MESSAGING_BASE_URL  the emulator's URL (required; printed by messaging emulator)
  MESSAGING_API_KEY   its key (default: ${DEFAULT_EMULATOR_API_KEY})

${exitCodesHelp()}  (trigger: 0 when every delivery succeeded or none was due; 1 when one failed, or
  is still to be retried and --wait was not given)
`;

/** Help text by command, for the commands listed here. */
export const COMMAND_HELP: Readonly<Record<string, string>> = { emulator: EMULATOR_HELP, trigger: TRIGGER_HELP };
