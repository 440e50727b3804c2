import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { request } from "undici";
import { basicAuth, VERSION } from "../../../support/emulator";

const ROOT = path.resolve(__dirname, "../../../..");
let outDir: string;

/**
 * Compiles the package as `npm run build` does, into a private directory so a parallel
 * build of `dist/` is neither raced nor required. Type errors elsewhere in the tree still
 * emit JavaScript; the test fails only if the files the command needs are missing.
 */
beforeAll(() => {
  outDir = mkdtempSync(path.join(os.tmpdir(), "messaging-cli-"));
  const tsc = require.resolve("typescript/bin/tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", outDir], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const needed = ["cli/main.js", "cli/commands/emulator/command.js", "cli/commands/trigger/command.js", "emulator/index.js"].map((file) =>
    path.join(outDir, file),
  );
  if (!needed.every((file) => existsSync(file))) {
    throw new Error(`build did not produce the CLI:\n${build.stdout}\n${build.stderr}`);
  }
}, 180_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  firstLine: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function runCli(args: string[], env: Record<string, string> = {}): Running {
  const base = { ...process.env };
  delete base.MESSAGING_API_KEY; // only what a test sets
  const child = spawn(process.execPath, [path.join(outDir, "cli/main.js"), ...args], {
    cwd: ROOT,
    // The compiled files live outside the repository; let them find its node_modules.
    env: { ...base, NODE_PATH: path.join(ROOT, "node_modules"), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, stderr })),
  );
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const newline = stdout.indexOf("\n");
      if (newline !== -1) resolve(stdout.slice(0, newline));
    });
    void exit.then(({ code }) => reject(new Error(`exited with ${code} before printing: ${stderr}`)));
  });
  // Tests that expect an early exit never await the line; keep its rejection handled.
  firstLine.catch(() => undefined);
  return { child, firstLine, exit };
}

/** Runs `messaging <args>`, hands `use` the URL its first line prints, and stops it (SIGTERM) after, even when `use` fails. */
async function withServing(args: string[], env: Record<string, string>, use: (url: string) => Promise<void>): Promise<void> {
  const run = runCli(args, env);
  try {
    await use(/(http:\/\/127\.0\.0\.1:\d+)/.exec(await run.firstLine)![1]);
  } finally {
    run.child.kill("SIGTERM");
  }
  await run.exit;
}

describe("messaging emulator (CLI)", () => {
  it("prints its URL, serves requests, and exits 0 on SIGTERM", async () => {
    const run = runCli(["emulator", "--port", "0"]);
    try {
      const line = await run.firstLine;
      expect(line).toMatch(/^messaging emulator listening on http:\/\/127\.0\.0\.1:\d+ \(api key: sk_test_emulator\)$/);
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];

      const form = new URLSearchParams({ url: "https://example.com/hooks", "events[]": "payment.succeeded" });
      const created = await request(`${url}/v1/webhooks/endpoints`, {
        method: "POST",
        headers: {
          authorization: basicAuth("sk_test_emulator"),
          "x-service-version": VERSION,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: form.toString(),
      });
      expect(created.statusCode).toBe(200);
      expect(((await created.body.json()) as { id: string }).id).toMatch(/^we_/);
    } finally {
      run.child.kill("SIGTERM");
    }
    const { code, signal } = await run.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
  });

  it("does not print a key given with --api-key, and requires it", async () => {
    const run = runCli(["emulator", "--port", "0", "--api-key", "sk_test_my_own_secret_key"]);
    try {
      const line = await run.firstLine;
      expect(line).not.toContain("sk_test_my_own_secret_key");
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      const wrong = await request(`${url}/_emulator/endpoints`, { headers: { authorization: basicAuth("sk_test_emulator") } });
      expect(wrong.statusCode).toBe(401);
      await wrong.body.dump();
      const right = await request(`${url}/_emulator/endpoints`, {
        headers: { authorization: basicAuth("sk_test_my_own_secret_key") },
      });
      expect(right.statusCode).toBe(200);
      await right.body.dump();
    } finally {
      run.child.kill("SIGINT");
    }
    expect((await run.exit).code).toBe(0);
  });

  async function status(url: string, key: string, path = "/_emulator/endpoints"): Promise<number> {
    const response = await request(`${url}${path}`, { headers: { authorization: basicAuth(key) } });
    await response.body.dump();
    return response.statusCode;
  }

  it("takes its key from MESSAGING_API_KEY when --api-key is absent, without printing it", async () => {
    const run = runCli(["emulator", "--port", "0"], { MESSAGING_API_KEY: "sk_test_from_the_environment" });
    try {
      const line = await run.firstLine;
      expect(line).toContain("(api key: from MESSAGING_API_KEY)");
      expect(line).not.toContain("sk_test_from_the_environment");
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1];
      expect(await status(url, "sk_test_emulator")).toBe(401);
      expect(await status(url, "sk_test_from_the_environment")).toBe(200);
    } finally {
      run.child.kill("SIGTERM");
    }
    expect((await run.exit).code).toBe(0);
  });

  it("answers only loopback Host names unless --allowed-host names another", async () => {
    const hostStatus = (url: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(url);
        const req = http.get(
          {
            host: target.hostname,
            port: target.port,
            path: "/_emulator/endpoints",
            headers: { host, authorization: basicAuth("sk_test_emulator") },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
      });
    await withServing(["emulator", "--port", "0"], {}, async (url) => {
      expect(await hostStatus(url, "dev.example")).toBe(403);
      expect(await hostStatus(url, "localhost")).toBe(200);
    });
    await withServing(["emulator", "--port", "0", "--allowed-host", "dev.example", "--allowed-host", "box.local"], {}, async (url) => {
      expect(await hostStatus(url, "dev.example:4010")).toBe(200);
      expect(await hostStatus(url, "box.local")).toBe(200);
      expect(await hostStatus(url, "evil.example")).toBe(403);
    });
  });

  it("prefers --api-key to MESSAGING_API_KEY", async () => {
    await withServing(["emulator", "--port", "0", "--api-key", "sk_test_flag"], { MESSAGING_API_KEY: "sk_test_env" }, async (url) => {
      expect(await status(url, "sk_test_env")).toBe(401);
      expect(await status(url, "sk_test_flag")).toBe(200);
    });
  });

  it("keeps what --max-stored-bytes allows (units accepted), evicting the oldest batches", async () => {
    await withServing(["emulator", "--port", "0", "--max-stored-bytes", "64KiB"], {}, async (url) => {
      for (let i = 0; i < 3; i++) {
        const sent = await request(`${url}/v1/message_batches`, {
          method: "POST",
          headers: { authorization: basicAuth("sk_test_emulator"), "x-service-version": VERSION, "content-type": "application/json" },
          // About 40 KB counted each: two cannot fit in 64 KiB.
          body: JSON.stringify({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: `m${i} ${"x".repeat(20_000)}` }] }),
        });
        expect(sent.statusCode).toBe(200);
        await sent.body.dump();
      }
      const listed = await request(`${url}/_emulator/batches`, { headers: { authorization: basicAuth("sk_test_emulator") } });
      const batches = (await listed.body.json()) as Array<{ messages: Array<{ body: string }> }>;
      expect(batches.map((b) => b.messages[0].body.slice(0, 2))).toEqual(["m2"]);
      expect(Number(listed.headers["x-emulator-stored-bytes"])).toBeLessThanOrEqual(64 * 1024);
    });
  });

  it("keeps at most --max-stored-messages", async () => {
    await withServing(["emulator", "--port", "0", "--max-stored-messages", "2", "--delivery-retry-schedule", "0.5,1"], {}, async (url) => {
      for (let i = 0; i < 3; i++) {
        const sent = await request(`${url}/v1/message_batches`, {
          method: "POST",
          headers: { authorization: basicAuth("sk_test_emulator"), "x-service-version": VERSION, "content-type": "application/json" },
          body: JSON.stringify({ stream: "transactional", messages: [{ tos: ["+254712345678"], body: `m${i}` }] }),
        });
        expect(sent.statusCode).toBe(200);
        await sent.body.dump();
      }
      const listed = await request(`${url}/_emulator/batches`, { headers: { authorization: basicAuth("sk_test_emulator") } });
      const batches = (await listed.body.json()) as Array<{ messages: Array<{ body: string }> }>;
      expect(batches.map((b) => b.messages[0].body)).toEqual(["m1", "m2"]);
      expect(listed.headers["x-emulator-messages-accepted"]).toBe("3");
    });
  });

  it.each([
    [["--port", "abc"]],
    [["--port", "70000"]],
    [["--bogus"]],
    [["extra"]],
    [["--max-stored-messages", "-1"]],
    [["--max-stored-messages", "many"]],
    [["--max-stored-bytes", "lots"]],
    [["--max-stored-bytes", "1TB"]],
    [["--max-stored-bytes", "-5"]],
    [["--delivery-retry-schedule", "1,x"]],
    [["--delivery-retry-schedule", "-1"]],
    [["--delivery-retry-schedule", ""]],
    [["--allowed-host", "http://dev.example"]],
    [["--allowed-host", "dev.example:80"]],
  ])("exits 2 with a message for bad arguments %p", async (args) => {
    const run = runCli(["emulator", ...args]);
    const { code, stderr } = await run.exit;
    expect(code).toBe(2);
    expect(stderr).toContain("usage: messaging emulator");
  });

  it("dispatches messaging trigger (bad arguments exit 2 with its usage)", async () => {
    const { code, stderr } = await runCli(["trigger"]).exit;
    expect(code).toBe(2);
    expect(stderr).toContain("usage: messaging trigger <event-type>");
  });
});
