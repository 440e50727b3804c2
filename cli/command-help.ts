/** `cli/send/command.ts`'s path to its help, until `send` moves into `cli/commands/send/`. */
export { HELP as SEND_HELP } from "./commands/send/help";
