import type { Command } from "../command";

/** `messaging emulator`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: [
    "emulator [--port N] [--host H] [--allowed-host NAME] [--api-key KEY] [--max-stored-messages N] [--max-stored-bytes N] [--delivery-retry-schedule 1,2,4]",
  ],
  summary: "runs a local emulator of the messaging service until Ctrl-C",
  options: {
    port: { type: "string" },
    host: { type: "string" },
    "allowed-host": { type: "string", multiple: true },
    "api-key": { type: "string" },
    "max-stored-messages": { type: "string" },
    "max-stored-bytes": { type: "string" },
    "delivery-retry-schedule": { type: "string" },
  },
} satisfies Command;
