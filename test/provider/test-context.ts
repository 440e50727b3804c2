/** A provider context for runtime unit tests: warnings kept, the service reachable only through the client given. */
import type { ProviderContext } from "../../provider/context";

export function testContext(client?: unknown): ProviderContext & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    client: () => {
      if (!client) throw new Error("the service must not be called here");
      return client as never;
    },
    warn: (message) => warnings.push(message),
    explain: (error) => error,
    serviceUrl: () => undefined,
  };
}
