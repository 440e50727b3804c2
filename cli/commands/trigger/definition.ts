import { type Command, valueOptions, switchOptions } from "../command";

/** `messaging trigger`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: ["trigger <event-type> [--data JSON] [--previous JSON] [--wait] [--allow-unknown-type]"],
  summary: "emits a webhook event through a running emulator (MESSAGING_BASE_URL)",
  options: { ...valueOptions("data", "previous"), ...switchOptions("wait", "no-wait", "allow-unknown-type") },
} satisfies Command;
