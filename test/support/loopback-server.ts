/** A real HTTP server on 127.0.0.1 port 0 answering with a handler, for what MockAgent and the emulator cannot produce. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface TestServer {
  url: string;
  requests: IncomingMessage[];
  connections: number;
  close(): Promise<void>;
}

/** Starts the server; `handler` answers request number `n` (from 1) once its body is read. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const state = { requests: [] as IncomingMessage[], connections: 0 };
  const server: Server = createServer((req, res) => {
    state.requests.push(req);
    req.resume();
    req.on("end", () => handler(req, res, state.requests.length));
  });
  server.on("connection", (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Closes every server in `servers` (dropping keep-alive connections) after the file's last test; push each as it starts. */
export function closeServersAfterAll(servers: Server[]): void {
  afterAll(async () => {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  });
}

/** A loopback port nothing listens on: it was free a moment ago (a child may bind it next). */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
