/** `messaging trigger --help` (and `messaging help trigger`): loaded only when asked for; its defaults are the code's own constants, so the text cannot drift from them. */
import { KNOWN_EVENT_TYPES } from "../../../schemas/types";
import { DEFAULT_EMULATOR_API_KEY } from "../../../emulator";
import { exitCodesHelp } from "../../exit-codes";
import { usageLines } from "..";

export const HELP = `messaging trigger — emit a webhook event through a running emulator

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
