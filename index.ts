/**
 * pulumi-messaging: Pulumi resources, a typed client, receiver helpers and a local emulator
 * for the messaging service's webhook endpoints and message batches.
 *
 * The root needs `@pulumi/pulumi` (the resources). Without it, use the subpaths:
 * `pulumi-messaging/client`, `/receiver`, `/emulator`; the zod schemas are only in
 * `pulumi-messaging/schemas`. Nothing declared here reaches zod's type declarations, so a
 * program type-checks under the `tsconfig.json` that `pulumi new typescript` writes.
 */
import { ConfigurationError } from "./errors/messaging-error";

// Checked before the provider module loads: without it a receiver project that imported the
// root by mistake would read only "Cannot find module '@pulumi/pulumi'", and not what to import.
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

// Every resource class and its Args (provider/index.ts lists them).
export * from "./provider";
export * from "./client";
export * from "./receiver";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** TCP port. Default 0: any free port (read it from `url`). */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The API key requests must present as the HTTP Basic username. Default `sk_test_emulator`. */
  apiKey?: string;
}

/**
 * A running emulator, as the package root types it. The object has every inspection helper;
 * import `startEmulator` from `pulumi-messaging/emulator` to have them typed (those types
 * reach zod's declarations, which the `pulumi new` tsconfig cannot check).
 */
export interface Emulator {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The API key it accepts. */
  readonly apiKey: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Starts a local emulator of the messaging service and resolves once it is listening. */
export const startEmulator: (options?: EmulatorOptions) => Promise<Emulator> = startFullEmulator;
