/** `messaging emulator --help` (and `messaging help emulator`): loaded only when asked for; its defaults are the code's own constants, so the text cannot drift from them. */
import {
  DEFAULT_DELIVERY_RETRY_SCHEDULE,
  DEFAULT_EMULATOR_API_KEY,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_STORED_MESSAGES,
} from "../../../emulator";
import { exitCodesHelp } from "../../exit-codes";
import { usageLines } from "..";

export const HELP = `messaging emulator — a local emulator of the messaging service

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
