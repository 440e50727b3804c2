/** A provider context for runtime unit tests: warnings kept, the service reachable only through the client given. */
import type { ProviderContext } from "../../provider/context";

export function testContext(
  client?: unknown,
  settings: Record<string, string> = {},
): ProviderContext & { warnings: string[]; statuses: string[] } {
  const warnings: string[] = [];
  const statuses: string[] = [];
  return {
    warnings,
    statuses,
    urn: "urn:pulumi:dev::shop::messaging:index:MessageBatch::reminders",
    deployment: new Map(),
    setting: (name) => settings[name],
    status: (message) => statuses.push(message),
    client: () => {
      if (!client) throw new Error("the service must not be called here");
      return client as never;
    },
    warn: (message) => warnings.push(message),
    explain: (error) => error,
    serviceUrl: () => undefined,
  };
}
