"use strict";
// Section of bench/run.js: `messaging send` of a 1,000,000-line NDJSON file to an emulator
// (its own process), as users run it; the CLI's peak RSS and wall time, then a check that the
// emulator accepted every message exactly once.

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { msSince, now } = require("./lib");

/** Writes `count` distinct messages as NDJSON to `file`. */
function writeNdjson(file, count) {
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on("error", reject);
    out.on("finish", resolve);
    let i = 0;
    const write = () => {
      let ok = true;
      while (i < count && ok) {
        ok = out.write(
          `${JSON.stringify({ tos: [`+2547${String(i).padStart(8, "0")}`], body: `Your code is ${100000 + (i % 900000)}. It expires in 10 minutes.` })}\n`,
        );
        i++;
      }
      if (i < count) out.once("drain", write);
      else out.end();
    };
    write();
  });
}

/** Runs the CLI; resolves with its exit code, output and peak RSS. */
function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, "cli-max-rss.js"), ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const match = /bench-max-rss-bytes (\d+)/.exec(stderr);
      resolve({ code, stdout, stderr, maxRssBytes: match ? Number(match[1]) : NaN });
    });
  });
}

/**
 * @param host an emulator-host child (see emulator-host.js), already started
 * @param ask sends a command to it and resolves with the reply
 */
async function sendFile({ lines, host, ask, progress, concurrency }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-bench-send-"));
  try {
    const file = path.join(dir, "messages.ndjson");
    progress(`send file: writing ${lines.toLocaleString("en-US")} lines`);
    await writeNdjson(file, lines);
    const bytes = fs.statSync(file).size;
    const { url, apiKey } = await ask(host, { cmd: "start" });
    const env = { ...process.env, MESSAGING_API_KEY: apiKey, MESSAGING_BASE_URL: url, MESSAGING_STATE_DIR: path.join(dir, "state") };
    progress(`send file: messaging send --concurrency ${concurrency}`);
    const start = now();
    const run = await runCli(["send", "--file", file, "--concurrency", String(concurrency)], env);
    const wallMs = msSince(start);
    if (run.code !== 0) throw new Error(`messaging send failed (${run.code}): ${run.stderr.slice(-2000)}`);
    const stats = await ask(host, { cmd: "stats", count: true });
    return {
      lines,
      bytes,
      concurrency,
      wallMs,
      maxRssBytes: run.maxRssBytes,
      emulatorBatches: stats.batchesRecorded,
      emulatorMessages: stats.messagesRecorded,
      emulatorDistinctRecipients: stats.distinctRecipients,
      summary: run.stdout.trim(),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { sendFile };
