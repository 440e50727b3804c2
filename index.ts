/**
 * pulumi-messaging: Pulumi resources, a typed client, receiver helpers and a local emulator. The root needs `@pulumi/pulumi`;
 * without it, use the subpaths. Nothing declared here reaches zod's declarations, which fail under `pulumi new`'s tsconfig.
 */
import { ConfigurationError } from "./errors/messaging-error";

// Otherwise a receiver project that imported the root by mistake would read only "Cannot find module", not what to import.
try {
  require.resolve("@pulumi/pulumi");
} catch {
  throw new ConfigurationError(
    "Cannot find module '@pulumi/pulumi': the root of pulumi-messaging exports the Pulumi resources " +
      "(WebhookEndpoint, MessageBatch) and needs it (npm install @pulumi/pulumi). Without Pulumi, import " +
      "from a subpath: pulumi-messaging/receiver (Node webhook receivers), pulumi-messaging/receiver/web " +
      "(Web Request handlers: Workers, Deno, Bun, Next.js), pulumi-messaging/client, " +
      "pulumi-messaging/emulator, pulumi-messaging/schemas or pulumi-messaging/errors.",
  );
}

import { startEmulator as startFullEmulator } from "./emulator";

export * from "./provider";
export * from "./client";
export * from "./receiver";

export interface EmulatorOptions {
  /** Default 0: any free port (read it from `url`). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** The HTTP Basic username requests must present. Default `sk_test_emulator`. */
  apiKey?: string;
}

/** A running emulator. Import `startEmulator` from `pulumi-messaging/emulator` to have its inspection helpers typed (they reach zod). */
export interface Emulator {
  /** Without a trailing slash. */
  readonly url: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

/** Starts a local emulator of the messaging service and resolves once it is listening. */
export const startEmulator: (options?: EmulatorOptions) => Promise<Emulator> = startFullEmulator;
