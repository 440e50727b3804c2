import { type Command, valueOptions } from "../command";

/** `messaging emulator`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: [
    "emulator [--port N] [--host H] [--allowed-host NAME] [--api-key KEY] [--max-stored-messages N] [--max-stored-bytes N] [--delivery-retry-schedule 1,2,4]",
  ],
  summary: "runs a local emulator of the messaging service until Ctrl-C",
  options: {
    ...valueOptions("port", "host", "api-key", "max-stored-messages", "max-stored-bytes", "delivery-retry-schedule"),
    "allowed-host": { type: "string", multiple: true },
  },
} satisfies Command;
