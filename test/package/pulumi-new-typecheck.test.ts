/**
 * A program made with `pulumi new typescript` type-checks against the packed package, with
 * the tsconfig.json that template writes (no skipLibCheck, no esModuleInterop; `module` and
 * `moduleResolution` `nodenext` since March 2026, `node` before), under each TypeScript a user may have: the repository's 5.x, 6 and 7 (the newest;
 * installed as the `typescript-6` and `typescript-7` aliases).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PackedTarball, REPO, packageDependencies, runNode } from "../support/installed-package";

/** What `pulumi new typescript` writes, verbatim. */
const PULUMI_NEW_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** A program using the root's resources, client and receiver helpers, and the zod-free subpaths. */
const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import {
  MessageBatch, MessagingClient, WebhookEndpoint, isApiError, startEmulator, verifySignature, type Message,
} from "pulumi-messaging";
import { MessagingClient as SubpathClient, type SendMessagesResult } from "pulumi-messaging/client";
import { parseEvent, isEventType } from "pulumi-messaging/receiver";

const payments = new WebhookEndpoint("payments", { url: "https://example.com/hooks", events: ["payment.succeeded"], format: "cloudEvents" });
const reminder: Message = { tos: ["+254712345678"], body: "Your appointment is tomorrow" };
const batch = new MessageBatch("reminders", { stream: "transactional", messages: [reminder] });

export const endpointId: pulumi.Output<string> = payments.id;
export const signingSecret = payments.secret;
export const batchUrn = batch.urn;

export async function send(apiKey: string, baseUrl: string): Promise<number> {
  const client: MessagingClient = new SubpathClient({ apiKey, baseUrl });
  try {
    const result: SendMessagesResult = await client.sendMessages([reminder], { stream: "transactional" });
    return result.messageCount;
  } catch (error) {
    if (isApiError(error)) return error.status;
    throw error;
  } finally {
    await client.close();
  }
}

export function receive(rawBody: string, header: string, secret: string): string | undefined {
  verifySignature(rawBody, header, secret);
  const event = parseEvent(rawBody);
  return isEventType(event, "payment.succeeded") ? event.id : undefined;
}

export const emulator = startEmulator({ port: 0 }).then((running) => running.url);
`;

/** The subpaths whose declarations reach zod's (fine under nodenext; `node` needs skipLibCheck for them). */
const ZOD_SUBPATHS_PROGRAM = `
import { startEmulator, type Emulator } from "pulumi-messaging/emulator";
import { Message } from "pulumi-messaging/schemas";
import { createWebhookRequestHandler } from "pulumi-messaging/receiver/web";

export const valid: boolean = Message.safeParse({ tos: ["+254712345678"], body: "hi" }).success;
export const running: Promise<Emulator> = startEmulator({ port: 0 });
export const handle: (request: Request) => Promise<Response> = createWebhookRequestHandler({ secret: "whsec_x", onEvent: () => undefined });
`;

/** The same program with a mistake the types must catch. */
const WRONG_PROGRAM = `
import { WebhookEndpoint } from "pulumi-messaging";
new WebhookEndpoint("payments", { url: "https://example.com/hooks", events: "payment.succeeded" });
new WebhookEndpoint("json", { url: "https://example.com/hooks", events: ["payment.succeeded"], format: "json" });
new WebhookEndpoint("no-url", { events: ["payment.succeeded"] });
`;

let packed: PackedTarball;
let project: string;

beforeAll(() => {
  packed = new PackedTarball();
  // What a pulumi-new project has: @pulumi/pulumi, @types/node, typescript, plus our dependencies.
  project = packed.project(
    {
      "package.json": JSON.stringify({ name: "pulumi-new", main: "index.ts" }),
      "index.ts": PROGRAM,
      "tsconfig.json": JSON.stringify(PULUMI_NEW_TSCONFIG, null, 2),
      "wrong.ts": WRONG_PROGRAM,
      "zod-subpaths.ts": ZOD_SUBPATHS_PROGRAM,
    },
    ["@pulumi/pulumi", "@types/node", ...packageDependencies()],
  );
});

afterAll(() => packed?.cleanup());

/** Writes `tsconfig.<name>.json` (the pulumi-new one with `change` applied) and returns its name. */
function tsconfig(name: string, change: (options: Record<string, unknown>) => void, files = ["index.ts"]): string {
  const config = structuredClone(PULUMI_NEW_TSCONFIG) as { compilerOptions: Record<string, unknown>; files: string[] };
  change(config.compilerOptions);
  config.files = files;
  const file = `tsconfig.${name}.json`;
  fs.writeFileSync(path.join(project, file), JSON.stringify(config, null, 2));
  return file;
}

/** Runs `tsc --noEmit -p <config>` of the given TypeScript package; returns exit code and the error lines. */
async function tsc(typescript: string, config: string): Promise<{ code: number; errors: string[]; version: string }> {
  const bin = path.join(REPO, "node_modules", typescript, "bin", "tsc");
  const version = (await runNode([bin, "--version"], project)).stdout.trim();
  const run = await runNode([bin, "--noEmit", "--pretty", "false", "-p", config], project);
  const errors = `${run.stdout}${run.stderr}`.split("\n").filter((line) => / error TS\d+/.test(line));
  return { code: run.code, errors, version };
}

describe("a pulumi new typescript project, type-checked against the packed package", () => {
  it("TypeScript 5.x: the template's tsconfig.json as written, 0 errors", async () => {
    const result = await tsc("typescript", "tsconfig.json");
    expect(result.version).toMatch(/^Version 5\./);
    expect(result.errors).toEqual([]);
    expect(result.code).toBe(0);
  });

  it("TypeScript 5.x: wrong inputs are reported: a string for a list, a format not among its values, a missing url", async () => {
    const result = await tsc(
      "typescript",
      tsconfig("wrong", () => undefined, ["wrong.ts"]),
    );
    expect(result.errors).toEqual([
      expect.stringMatching(/^wrong\.ts\(3,\d+\): error TS2322: .*Input<string>\[\]/),
      expect.stringMatching(/^wrong\.ts\(4,\d+\): error TS2322: Type '"json"' is not assignable/),
      expect.stringMatching(/^wrong\.ts\(5,\d+\): error TS2345: Argument of type '{ events: string\[\]; }' is not assignable/),
    ]);
  });

  it("TypeScript 6: only the template's own deprecated moduleResolution is reported; with ignoreDeprecations, 0 errors", async () => {
    const asWritten = await tsc("typescript-6", "tsconfig.json");
    expect(asWritten.version).toMatch(/^Version 6\./);
    expect(asWritten.errors.length).toBeGreaterThan(0);
    expect(asWritten.errors.every((line) => line.startsWith("tsconfig.json(") && line.includes("error TS5107"))).toBe(true);

    const silenced = await tsc(
      "typescript-6",
      tsconfig("ts6", (options) => (options.ignoreDeprecations = "6.0")),
    );
    expect(silenced.errors).toEqual([]);
    expect(silenced.code).toBe(0);
  });

  it("TypeScript 7 (newest): without the removed moduleResolution node10, 0 errors", async () => {
    const asWritten = await tsc("typescript-7", "tsconfig.json");
    expect(asWritten.version).toMatch(/^Version 7\./);
    expect(asWritten.errors.every((line) => line.includes("tsconfig.json") && line.includes("error TS5108"))).toBe(true);

    const fixed = await tsc(
      "typescript-7",
      tsconfig("ts7", (options) => delete options.moduleResolution),
    );
    expect(fixed.errors).toEqual([]);
    expect(fixed.code).toBe(0);
  });

  it.each([["typescript"], ["typescript-6"], ["typescript-7"]])(
    "%s: the current template's module and moduleResolution nodenext, 0 errors, /emulator and /schemas included",
    async (typescript) => {
      const config = tsconfig(
        `nodenext-${typescript}`,
        (options) => {
          options.module = "nodenext";
          options.moduleResolution = "nodenext";
        },
        ["index.ts", "zod-subpaths.ts"],
      );
      const result = await tsc(typescript, config);
      expect(result.errors).toEqual([]);
      expect(result.code).toBe(0);
    },
  );

  it.each([["typescript"], ["typescript-7"]])(
    "%s: module and moduleResolution node16 (what the examples use), 0 errors",
    async (typescript) => {
      const config = tsconfig(`node16-${typescript}`, (options) => {
        options.module = "node16";
        options.moduleResolution = "node16";
      });
      const result = await tsc(typescript, config);
      expect(result.errors).toEqual([]);
      expect(result.code).toBe(0);
    },
  );
});
