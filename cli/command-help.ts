/**
 * `--help` of the commands whose own file has none: options, environment variables and
 * exit codes, as `messaging <command> --help` and `messaging help <command>` print them.
 * (`messaging send --help` is in `send-command.ts`, beside its options.) Defaults are the
 * emulator's own constants, so the text cannot drift from them.
 */
import { DEFAULT_DELIVERY_RETRY_SCHEDULE, DEFAULT_EMULATOR_API_KEY, DEFAULT_MAX_STORED_MESSAGES } from "../emulator";

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

exit codes:
  0    stopped by SIGINT or SIGTERM
  2    bad arguments
`;

export const TRIGGER_HELP = `messaging trigger — emit a webhook event through a running emulator

usage: messaging trigger <event-type> [--data JSON] [--previous JSON] [--no-wait]

Asks the emulator to emit an event of that type to every endpoint subscribed to it, then
prints each delivery's outcome, following the retries.

options:
  --data JSON      the related object (becomes data.object), or the whole data when it has
                   an "object" member
  --previous JSON  the object's previous values (data.previous)
  --no-wait        print the first attempts only; do not follow the retries
  -h, --help       this help

environment:
  MESSAGING_BASE_URL  the emulator's URL (required; printed by messaging emulator)
  MESSAGING_API_KEY   its key (default: ${DEFAULT_EMULATOR_API_KEY})

exit codes:
  0    every delivery succeeded (or none was due)
  1    a delivery failed, or the emulator could not be reached or refused the event
  2    bad arguments, or MESSAGING_BASE_URL not set
`;

/** Help text by command, for the commands listed here. */
export const COMMAND_HELP: Readonly<Record<string, string>> = { emulator: EMULATOR_HELP, trigger: TRIGGER_HELP };
