/** `messaging listen --help` (and `messaging help listen`): loaded only when asked for; its defaults are the code's own constants, so the text cannot drift from them. */
import { KNOWN_EVENT_TYPES } from "../../../schemas/types";
import { DEFAULT_EMULATOR_API_KEY } from "../../../emulator";
import { exitCodesHelp } from "../../exit-codes";
import { usageLines } from "..";
import { FORMAT_FLAG } from "../endpoints/create-flags";

export const HELP = `messaging listen — forward the emulator's webhook deliveries to your receiver, and watch them

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
  ${FORMAT_FLAG.help[0].flag.padEnd(20)}  ${FORMAT_FLAG.help[0].text}
  --show-secret         print the signing secret itself (default: masked, and the export
                        line reads it with messaging endpoints secret <id>)
  -h, --help            this help

environment:
  MESSAGING_BASE_URL  the emulator's URL (default: start one)
  MESSAGING_API_KEY   its key (default: ${DEFAULT_EMULATOR_API_KEY})

${exitCodesHelp()}`;
