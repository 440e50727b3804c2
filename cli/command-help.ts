/**
 * Every command's `--help`: usage (from the registry, `commands.ts`), options, environment
 * variables and exit codes, as `messaging <command> --help` and `messaging help <command>`
 * print them. Defaults are the emulator's and the client's own constants, so the text cannot
 * drift from them. Loaded only when help is asked for.
 */
import {
  DEFAULT_DELIVERY_RETRY_SCHEDULE,
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_STORED_MESSAGES,
} from "../emulator";
import { z } from "zod";
import { MAX_SEND_CONCURRENCY } from "../client/send-messages";
import { KNOWN_EVENT_TYPES } from "../schemas/types";
import { WebhookEndpointCreate } from "../schemas/webhook-endpoint";
import { CREATE_FIELDS_WITH_OWN_FLAGS, flagOf, usageLines } from "./commands";
import { exitCodesHelp } from "./exit-codes";

/** `  --flag ARG  text`, the text from column 22 (on the next line after a longer flag), wrapped at 70 characters. */
function optionLine(flag: string, text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    if (lines.length > 0 && `${lines[lines.length - 1]} ${word}`.length <= 70) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  const head = `  ${flag}`;
  const indent = " ".repeat(21);
  return head.length <= 20
    ? [`${head.padEnd(21)}${lines[0]}`, ...lines.slice(1).map((line) => `${indent}${line}`)].join("\n")
    : [head, ...lines.map((line) => `${indent}${line}`)].join("\n");
}

/** `endpoints create`'s flags for the create fields it sends as given, each described by the create schema's `.meta()`. */
const givenFieldOptions = Object.entries(WebhookEndpointCreate.shape)
  .filter(([key]) => !(CREATE_FIELDS_WITH_OWN_FLAGS as readonly string[]).includes(key))
  .map(([key, field]) =>
    optionLine(`--${flagOf(key)} TEXT`, (z.globalRegistry.get(field) as { description?: string } | undefined)?.description ?? ""),
  )
  .join("\n");

export const EMULATOR_HELP = `messaging emulator — a local emulator of the messaging service

${usageLines("emulator")}

Starts the emulator and prints one line holding its base URL once it listens; runs until
SIGINT (Ctrl-C) or SIGTERM. Its routes, statuses and the inspection routes and page
(/_emulator/…) are described in emulator/README.md.

options:
  --port N                     TCP port (default: 0, any free port: read it from the printed URL)
  --host H                     interface to listen on (default: 127.0.0.1)
  --allowed-host NAME          also answer requests whose Host header is NAME (repeatable; '*'
                               for any). Without it only localhost, 127.0.0.1, [::1] and --host
                               are answered (403 host_not_allowed): a web page cannot reach the
                               emulator through a name of its own (DNS rebinding)
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

${usageLines("trigger")}

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
  --no-wait             do not follow them (the default; accepted for older scripts)
  --allow-unknown-type  emit a type that is neither named nor subscribed to
  -h, --help            this help

environment:
  MESSAGING_BASE_URL  the emulator's URL (required; printed by messaging emulator)
  MESSAGING_API_KEY   its key (default: ${DEFAULT_EMULATOR_API_KEY})

${exitCodesHelp()}  (trigger: 0 when every delivery succeeded or none was due; 1 when one failed, or
  is still to be retried and --wait was not given)
`;

export const EVENTS_HELP = `messaging events — deliver an event of a running emulator again

${usageLines("events")}

Delivers the event again, now, to every endpoint it was delivered to (or to the one given
with --endpoint), as the inspector's "deliver again" button does: after a receiver, or the
signing secret it checks, is fixed. Each delivery gets one more attempt (a manual one); the
retry schedule does not start again. Prints each attempt: URL, attempt number, status, time.
Event ids are printed by messaging trigger and messaging listen, and listed by the
inspector (/_emulator/).

options:
  --endpoint ID  resend to this endpoint (we_…) only
  -h, --help     this help

environment:
  MESSAGING_BASE_URL  the emulator's URL (required; printed by messaging emulator)
  MESSAGING_API_KEY   its key (default: ${DEFAULT_EMULATOR_API_KEY})

${exitCodesHelp()}  (events resend: 0 when every attempt delivered; 1 when one failed or the event is unknown)
`;

export const LISTEN_HELP = `messaging listen — forward the emulator's webhook deliveries to your receiver, and watch them

${usageLines("listen")}

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

${usageLines("endpoints")}

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
${givenFieldOptions}
  --show-secret      print signing secrets instead of masking them
  --json             print JSON on stdout
  -h, --help         this help

environment:
  MESSAGING_BASE_URL     the service's or the emulator's URL (required)
  MESSAGING_API_KEY      the API key (default: ${DEFAULT_EMULATOR_API_KEY}, the emulator's)
  MESSAGING_API_VERSION  X-Service-Version (default: 2024-06-01)

${exitCodesHelp()}`;

export const SEND_HELP = `messaging send — send every message of a file, each exactly once

${usageLines("send")}

Reads the file twice, as a stream (memory stays flat whatever its size): first to check
every message (nothing is sent if one is invalid: the first 100 problems are listed, by
line and field, then a count) and to plan the run, then to send in calls of up to 1,000.

Each message is known by its content and its occurrence (the second of two identical lines
is a message of its own), and every message the service confirms is written to a journal
kept for this file, service and stream. Running the command again, after an interruption
(Ctrl-C, a kill, a crash, a cancelled CI job) or after the file was edited, sends exactly
the messages not sent yet: lines appended or changed before they were sent go out, lines
already sent do not. A call left unanswered by a killed run is finished first, under the
same idempotency key with the same messages, so the service answers it from its record.

One case is yours to decide: a line that was sent and has changed since (or was removed).
The command then sends nothing, names those lines, and proceeds only with --allow-changed,
which sends the lines not yet sent, new versions included (a second text to those
recipients).

options:
  --file FILE            the messages (required)
  --stream NAME          stream of every batch (default: a JSON file's top-level "stream",
                         else transactional; a --stream that conflicts with it is refused)
  --format FORMAT        ndjson, json or csv (default: from the extension:
                         .ndjson/.jsonl, .json, .csv)
  --batch-size N         messages per call, 1-1000 (default: 1000)
  --concurrency N        calls in flight at once, 1-${MAX_SEND_CONCURRENCY} (default: 1)
  --dry-run              check the file and show what a run would send; send nothing
                         (needs no API key, unless the file has a journal)
  --allow-changed        send although lines sent earlier have changed or gone (see above)
  --in-flight WHAT       a call left in flight more than 24 hours ago, when the service
                         may have forgotten its key: 'sent' records it as sent, 'resend'
                         sends it again under its key
  --resend               send the whole file again, as a new send with an id of its own
                         (printed at the start; finish it with --send-id)
  --send-id ID           continue the --resend with this id
  --state-dir DIR        where journals are kept (see MESSAGING_STATE_DIR)
  --idempotency-key-prefix KEY
                         start every call's key with KEY instead of 'ms3'
  --json                 print one JSON object with the outcome on stdout
                         (batch ids included); progress stays on stderr
  -h, --help             this help

environment:
  MESSAGING_API_KEY      the API key (required to send; the emulator's default is ${DEFAULT_EMULATOR_API_KEY});
                         the journal's records and the call keys are keyed by it: finish a
                         send before you change it
  MESSAGING_BASE_URL     the service's (or the emulator's) URL (required to send)
  MESSAGING_API_VERSION  X-Service-Version (default: 2024-06-01)
  MESSAGING_STATE_DIR    journal directory (default: $XDG_STATE_HOME/pulumi-messaging/sends,
                         or ~/.local/state/pulumi-messaging/sends)

file formats:
  NDJSON  one message a line: {"tos":["+254712345678"],"body":"Hello"}; blank lines skipped
  JSON    an array of messages, or {"messages": [...]}
  CSV     a header row, then columns to (numbers separated by ';') and body, or
          template_id and model.<name> columns
  UTF-8 only (a byte order mark is ignored; UTF-16 is refused by name). Rejected, naming
  the line and field: invalid UTF-8, duplicate JSON keys, numbers a double does not hold
  exactly (and -0, and beyond 2^53 - 1), keys named __proto__, nesting deeper than 32,
  duplicate or unknown CSV columns, a message too large for a call of its own.

${exitCodesHelp()}  (send: 0 sent, already sent, or valid with --dry-run; 1 not sent or not all sent: the
  message says why, and whether running the same command again finishes it)
`;
