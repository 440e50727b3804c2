/**
 * `pulumi-messaging/receiver/web` in a Workers-style project: no Node types (`"types": []`),
 * the Web library only, and no `skipLibCheck`, so every declaration the subpath reaches is
 * checked. A Node type (`Buffer`, `node:http`) anywhere in them fails this (TS2591, TS2307).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PackedTarball, REPO, packageDependencies, runNode, strictTsconfig } from "../support/installed-package";

const PROGRAM = `
import {
  createWebhookRequestHandler, verifyWebhookRequest, MemoryReplayGuard, isEventType, isBodyTooLargeError,
  type ParsedEvent, type WebhookRequestHandlerOptions,
} from "pulumi-messaging/receiver/web";

const options: WebhookRequestHandlerOptions = {
  secret: "whsec_x",
  replayGuard: new MemoryReplayGuard({ ttlSeconds: 3600 }),
  onEvent: (event: ParsedEvent, { rawBody }) => {
    if (isEventType(event, "payment.succeeded")) console.log(event.id, rawBody.byteLength);
  },
};
const handle: (request: Request) => Promise<Response> = createWebhookRequestHandler(options);
export default { fetch: handle };

export async function check(request: Request): Promise<string> {
  try {
    return (await verifyWebhookRequest(request, ["whsec_new", "whsec_old"], { headerName: "x-service-signature" })).id;
  } catch (error) {
    return isBodyTooLargeError(error) ? "too large" : "rejected";
  }
}
`;

/** The same program with a mistake the types must catch: onEvent's event is not a string. */
const WRONG = `
import { createWebhookRequestHandler } from "pulumi-messaging/receiver/web";
createWebhookRequestHandler({ secret: "whsec_x", onEvent: (event: string) => console.log(event) });
`;

const TSCONFIG = (lib: string[], files: string[]) => strictTsconfig({ compilerOptions: { lib, types: [] }, files });

let packed: PackedTarball;
let project: string;

beforeAll(() => {
  packed = new PackedTarball();
  // No @types/node: only the package and its own dependencies (zod's declarations are checked too).
  project = packed.project(
    {
      "package.json": JSON.stringify({ name: "worker", private: true, type: "module" }),
      "index.ts": PROGRAM,
      "wrong.ts": WRONG,
      "tsconfig.dom.json": TSCONFIG(["es2022", "dom"], ["index.ts"]),
      "tsconfig.webworker.json": TSCONFIG(["es2022", "webworker"], ["index.ts"]),
      "tsconfig.wrong.json": TSCONFIG(["es2022", "dom"], ["wrong.ts"]),
    },
    packageDependencies(),
  );
});

afterAll(() => packed?.cleanup());

async function tsc(config: string): Promise<string[]> {
  const bin = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
  const run = await runNode([bin, "--pretty", "false", "-p", config], project);
  return `${run.stdout}${run.stderr}`.split("\n").filter((line) => / error TS\d+/.test(line));
}

describe('/receiver/web in a "types": [] project without skipLibCheck', () => {
  it("has no @types/node to find", () => {
    expect(fs.existsSync(path.join(project, "node_modules", "@types", "node"))).toBe(false);
  });

  it.each([["dom"], ["webworker"]])("type-checks with lib %s: 0 errors", async (lib) => {
    expect(await tsc(`tsconfig.${lib}.json`)).toEqual([]);
  });

  it("still reports a wrong onEvent (the types are real, not any)", async () => {
    expect(await tsc("tsconfig.wrong.json")).toEqual([expect.stringMatching(/^wrong\.ts\(3,\d+\): error TS2322/)]);
  });
});
