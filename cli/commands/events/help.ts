/** `messaging events --help` (and `messaging help events`): loaded only when asked for; its defaults are the code's own constants, so the text cannot drift from them. */
import { DEFAULT_EMULATOR_API_KEY } from "../../../emulator";
import { exitCodesHelp } from "../../exit-codes";
import { usageLines } from "..";

export const HELP = `messaging events — deliver an event of a running emulator again

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
