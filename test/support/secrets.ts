/**
 * Pulumi's secret wrapper in a protobuf Struct, as the engine sends secrets to a provider
 * that accepts them (the plugin) and as the dynamic-provider host receives none.
 */
import type { Props } from "../../provider/protocol";

/** The marker the engine uses for a secret inside a struct: `{ [key]: value, value: <secret> }`. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" };

/** True for the engine's secret wrapper `{ <sig>: <secret sig>, value }`. */
export function isSecretWrapper(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SECRET_SIG.key] === SECRET_SIG.value;
}

export function wrapSecret(value: unknown): Props {
  return { [SECRET_SIG.key]: SECRET_SIG.value, value };
}
