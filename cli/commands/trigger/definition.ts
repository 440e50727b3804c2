import type { Command } from "../command";

/** `messaging trigger`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: ["trigger <event-type> [--data JSON] [--previous JSON] [--wait] [--allow-unknown-type]"],
  summary: "emits a webhook event through a running emulator (MESSAGING_BASE_URL)",
  options: {
    data: { type: "string" },
    previous: { type: "string" },
    wait: { type: "boolean" },
    "no-wait": { type: "boolean" },
    "allow-unknown-type": { type: "boolean" },
  },
} satisfies Command;
