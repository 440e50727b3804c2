import { type Command, valueOptions, switchOptions } from "../command";
import { FORMAT_FLAG } from "../endpoints/create-flags";

/** `messaging listen`'s row in the registry: data only, so listing the commands loads none of their code. */
export const definition = {
  usage: [`listen --forward-to URL [--events TYPE,…] [--allow-unknown-type] ${FORMAT_FLAG.usage} [--show-secret]`],
  summary: "forwards the emulator's webhook deliveries to your receiver and prints each attempt",
  options: {
    ...valueOptions("forward-to", "format"),
    events: { type: "string", multiple: true },
    ...switchOptions("allow-unknown-type", "show-secret"),
  },
} satisfies Command;
