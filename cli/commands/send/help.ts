/** `messaging send --help` (and `messaging help send`): loaded only when asked for; its defaults are the code's own constants, so the text cannot drift from them. */
import { MAX_SEND_CONCURRENCY } from "../../../client/send-messages";
import { DEFAULT_EMULATOR_API_KEY } from "../../../emulator";
import { exitCodesHelp } from "../../exit-codes";
import { usageLines } from "..";

export const HELP = `messaging send — send every message of a file, each exactly once

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
  --max-messages N       refuse, sending nothing, a run that would send more than N
                         messages (default: MESSAGING_MAX_MESSAGES_PER_UPDATE; unset, no limit)
  --json                 print one JSON object with the outcome on stdout
                         (batch ids included); progress stays on stderr
  -h, --help             this help

environment:
  MESSAGING_API_KEY      the API key (required to send; the emulator's default is ${DEFAULT_EMULATOR_API_KEY});
                         the journal's records and the call keys are keyed by it: finish a
                         send before you change it
  MESSAGING_BASE_URL     the service's (or the emulator's) URL (required to send)
  MESSAGING_API_VERSION  X-Service-Version (default: 2024-06-01)
  MESSAGING_MAX_MESSAGES_PER_UPDATE
                         the default of --max-messages
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
