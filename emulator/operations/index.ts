/** The emulator's own API (`/_emulator/…`) as a table of operations, and the typed client that calls it. */
export { type EmulatorAnswer, type EmulatorCallInput, EmulatorClient, type EmulatorClientOptions } from "./emulator-client";
export {
  EmitEventRequest,
  EMULATOR_OPERATIONS,
  type EmulatorOperationName,
  type FaultSettings,
  MAX_BATCH_PAGE,
  MAX_EVENT_BODY_BYTES,
} from "./emulator-operations";
