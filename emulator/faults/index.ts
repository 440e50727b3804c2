/** Fault injection: the faults an API request can meet, their settings, and the injector that chooses them. */
export { chooseFault, FAULT_KINDS, type FaultKind, faultStatus, mulberry32 } from "./fault-choice";
export { FaultInjector } from "./fault-injector";
export {
  FaultSettingsSchema,
  faultSettingsOrThrow,
  parseFaultSettings,
  RandomFaults,
  ScriptedFault,
  ScriptedFaults,
  type FaultSettings,
  type FaultSettingsInput,
  type ParsedFaultSettings,
} from "./fault-settings";
