/**
 * `--help` of the commands whose own file has none: options, environment variables and
 * exit codes, as `messaging <command> --help` and `messaging help <command>` print them.
 * (`messaging send --help` is in `send-command.ts`, beside its options.) Defaults are the
 * emulator's own constants, so the text cannot drift from them.
 */
import {
  DEFAULT_DELIVERY_RETRY_SCHEDULE,
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_STORED_MESSAGES,
} from "../emulator";
import { KNOWN_EVENT_TYPES } from "../schemas/types";
import { exitCodesHelp } from "./exit-codes";

export const EMULATOR_HELP = `messaging emulator — a local emulator of the messaging service

usage: messaging emulator [--port N] [--host H] [--api-key KEY] [--max-stored-messages N] [--max-stored-bytes N]
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
  --max-stored-bytes N         budget of everything kept (batches, events, attempts, endpoints):
                               bytes, or with KiB, MiB or GiB; past it the oldest batches go first
                               (default: ${DEFAULT_MAX_STORED_BYTES}, 256 MiB)
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

export const LISTEN_HELP = `messaging listen — forward the emulator's webhook deliveries to your receiver, and watch them

usage: messaging listen --forward-to URL [--events TYPE,…] [--allow-unknown-type]
                        [--format basic|cloudEvents] [--show-secret]

Uses the emulator at MESSAGING_BASE_URL, or starts one when it is not set (and prints the
export line for other terminals). Reuses the emulator's endpoint with the same URL, events
and format, or creates one, then prints its id and a line that exports its signing secret
as MESSAGING_WEBHOOK_SECRET for your receiver. Then prints every delivery attempt to it as
it happens (time, event id, type, attempt, status, ms, and why it failed) until Ctrl-C.
Emit events with messaging trigger <type> in another terminal.

options:
  --forward-to URL      your receiver's URL, e.g. http://localhost:3000/webhooks (required)
  --events TYPE,…       event types to subscribe to, comma-separated or repeated
                        (default: every named type: ${KNOWN_EVENT_TYPES.join(", ")})
  --allow-unknown-type  subscribe to a type that is not a named one (refused otherwise: a
                        typo would wait for events that never come)
  --format F            basic or cloudEvents (default: basic)
  --show-secret         print the signing secret itself (default: masked, and the export
                        line reads it with messaging endpoints secret <id>)
  -h, --help            this help

environment:
  MESSAGING_BASE_URL  the emulator's URL (default: start one)
  MESSAGING_API_KEY   its key (default: ${DEFAULT_EMULATOR_API_KEY})

${exitCodesHelp()}`;

export const ENDPOINTS_HELP = `messaging endpoints — create and list webhook endpoints

usage: messaging endpoints create --url URL [--events TYPE,…] [--format basic|cloudEvents]
                                  [--description TEXT] [--show-secret] [--json]
       messaging endpoints list [--show-secret] [--json]
       messaging endpoints secret <endpoint id>

create  creates an endpoint with POST /v1/webhooks/endpoints at MESSAGING_BASE_URL: the
        service or the emulator. Prints its id and its signing secret, masked unless
        --show-secret (--json: the endpoint object, secret masked likewise).
list    lists the emulator's endpoints (the service has no list operation; its dashboard
        shows them under Developers → Webhooks).
secret  prints one endpoint's signing secret, from the emulator, and nothing else:
        export MESSAGING_WEBHOOK_SECRET="$(messaging endpoints secret we_…)"

options:
  --url URL          where the events are posted (create; required)
  --events TYPE,…    event types, comma-separated or repeated (default: every named type:
                     ${KNOWN_EVENT_TYPES.join(", ")})
  --allow-unknown-type
                     subscribe to a type that is not a named one (refused otherwise)
  --format F         basic or cloudEvents (default: basic)
  --description TEXT what the endpoint is for
  --show-secret      print signing secrets instead of masking them
  --json             print JSON on stdout
  -h, --help         this help

environment:
  MESSAGING_BASE_URL     the service's or the emulator's URL (required)
  MESSAGING_API_KEY      the API key (default: ${DEFAULT_EMULATOR_API_KEY}, the emulator's)
  MESSAGING_API_VERSION  X-Service-Version (default: 2024-06-01)

${exitCodesHelp()}`;

/** Help text by command, for the commands listed here. */
export const COMMAND_HELP: Readonly<Record<string, string>> = {
  emulator: EMULATOR_HELP,
  trigger: TRIGGER_HELP,
  listen: LISTEN_HELP,
  endpoints: ENDPOINTS_HELP,
};
