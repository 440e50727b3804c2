import http from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_EMULATOR_API_KEY } from "./auth";
import { FaultInjector, type FaultSettings, type FaultSettingsInput } from "./fault-injector";
import { handleRequest } from "./handle-request";
import { IdempotencyStore } from "./idempotency";
import { EmulatorStore, type Delivery, type RecordedBatch, type RecordedWebhookEndpoint } from "./store";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** TCP port. Default 0: any free port (read it from `url`). */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** The API key requests must present as the HTTP Basic username. Default `sk_test_emulator`. */
  apiKey?: string;
}

/** A running emulator. The inspection helpers return copies of the same data as the `/_emulator/` routes. */
export interface Emulator {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The API key it accepts. */
  readonly apiKey: string;
  /** Stops listening, drops open (keep-alive) connections and aborts deliveries in progress. */
  close(): Promise<void>;
  /** Webhook endpoints created, in order. */
  endpoints(): RecordedWebhookEndpoint[];
  /** Accepted message batches, in order. */
  batches(): RecordedBatch[];
  /** Event delivery attempts, in order. */
  deliveries(): Delivery[];
  /** Requests received on `/v1` paths, rejected and faulted ones included. */
  requestCount(): number;
  /**
   * Sets fault injection for `/v1` requests (as `POST /_emulator/faults` does) and returns
   * the settings in force. Throws a ZodError for a rate outside [0, 1] or a non-integer seed.
   */
  setFaults(settings: FaultSettingsInput): FaultSettings;
}

// Deep copies for the public accessors: the store hands out what it recorded, and a test
// that changes what it was given must not change what the emulator recorded.
function copies<T>(items: readonly T[]): T[] {
  return items.map((item) => structuredClone(item));
}

// The URL must be connectable: a wildcard bind is reached through loopback.
function urlHost(host: string, address: AddressInfo): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  const name = host === address.address || host.includes(":") ? address.address : host;
  return name.includes(":") ? `[${name}]` : name;
}

/**
 * Starts a local HTTP server that behaves like the messaging service (plus the
 * `/_emulator/` inspection and control routes) and resolves once it is listening.
 * State is in memory and lasts until `close()`.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  const apiKey = options.apiKey ?? DEFAULT_EMULATOR_API_KEY;
  if (apiKey === "") throw new TypeError("startEmulator: apiKey must not be empty");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`startEmulator: port must be an integer from 0 to 65535, got ${port}`);
  }

  const store = new EmulatorStore();
  const faults = new FaultInjector();
  const closing = new AbortController();
  let apiRequests = 0;
  const state = {
    apiKey,
    store,
    faults,
    idempotency: new IdempotencyStore(),
    closing: closing.signal,
    countApiRequest: () => {
      apiRequests += 1;
    },
  };

  const server = http.createServer((req, res) => {
    void handleRequest(req, res, state);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(host, address)}:${address.port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    apiKey,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        // Without this, keep-alive sockets hold the server (and a test runner) open.
        server.closeAllConnections();
      });
      return closed;
    },
    endpoints: () => copies(store.endpoints()),
    batches: () => copies(store.batches()),
    deliveries: () => copies(store.deliveries()),
    requestCount: () => apiRequests,
    setFaults: (settings) => faults.configure(settings),
  };
}
