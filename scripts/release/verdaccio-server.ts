/**
 * The local npm registry of `npm run release:local`: verdaccio (a devDependency) with the
 * config file given, listening on 127.0.0.1 on a free port, which it prints alone on the first
 * line of stdout. Run as a child process (./local-registries.ts), so npm's calls to it never
 * wait on the releasing process.
 *
 *   node dist/scripts/release/verdaccio-server.js <config.yaml>
 */
import type { Server } from "node:http";

type Verdaccio = { runServer(config: string): Promise<Server> };

const verdaccio = require("verdaccio") as Verdaccio;
verdaccio.runServer(process.argv[2]).then(
  (server) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      process.stdout.write(`${typeof address === "object" && address ? address.port : ""}\n`);
    }),
  (error: unknown) => {
    process.stderr.write(`verdaccio: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
