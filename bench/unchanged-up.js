"use strict";
// Section 11 of bench/run.js: what an unchanged `pulumi up` costs, against the empty stack, on
// both routes, driven the same way (the Automation API's `up`, which skips the preview): the
// TypeScript route (an inline program, the dynamic provider) and the YAML route (the packed
// plugin, as users install it). Rows: an empty stack; 100 and 30,000 inline messages of 160
// characters; a 30,000-line and a 1,000,000-line file. Each row gets a new stack and a new
// emulator (its own process); its first `up` deploys it (every message accepted once is
// checked), then the unchanged `up` is timed, best of 3. Every node process of a run loads
// process-usage.js, which records its CPU time and peak RSS: the plugin's (or the TypeScript
// route's provider host's) figures come from there.

const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { ask, msSince, now } = require("./lib");
const { sampleEngineProcesses } = require("./engine-usage");

const REPO = path.join(__dirname, "..");
const STREAM = "transactional";
const ROWS = [
  { name: "empty stack", kind: "empty" },
  { name: "100 inline", kind: "inline", messages: 100 },
  { name: "30,000 inline", kind: "inline", messages: 30_000 },
  // Pulumi YAML reads the program from Main.yaml when there is one: the CLI then loads a small Pulumi.yaml.
  { name: "30,000 inline, Main.yaml", kind: "inline", messages: 30_000, mainYaml: true, routes: ["yaml"] },
  { name: "30,000-line file", kind: "file", messages: 30_000 },
  { name: "1,000,000-line file", kind: "file", messages: 1_000_000 },
];
const REPEATS = 3;
// BENCH_UP_ROWS="yaml:30,000 inline;typescript:empty": only those rows (a route, then a row's name or, when no row has that
// name, the start of one).
const chosen = process.env.BENCH_UP_ROWS?.split(";").map((entry) => entry.split(":"));
const names = (name, row) => row.name === name || (!ROWS.some((other) => other.name === name) && row.name.startsWith(name));
const wanted = (route, row) =>
  (row.routes === undefined || row.routes.includes(route)) && (!chosen || chosen.some(([r, name]) => r === route && names(name, row)));

/** Message `i`: 160 characters, a recipient of its own (as issue 38 measured). */
function sms(i) {
  const head = `Reminder ${i}: your appointment is tomorrow at 09:00. Reply STOP to opt out. `;
  return { tos: [`+2547${String(10_000_000 + i).padStart(8, "0")}`], body: head.padEnd(160, ".") };
}

function writeFile(file, count) {
  const fd = fs.openSync(file, "w");
  try {
    for (let start = 0; start < count; start += 10_000) {
      let text = "";
      for (let i = start; i < Math.min(count, start + 10_000); i++) text += `${JSON.stringify(sms(i))}\n`;
      fs.writeSync(fd, text);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The directory holding the real `pulumi` (npm run pulumi:path; built once, cached). */
function pulumiBin() {
  const out = execFileSync("bash", [path.join(REPO, "scripts", "pulumi-cli", "pulumi-path.sh")], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").at(-1);
}

/** The processes of one run, from process-usage.js: the plugin and the TypeScript route's provider host. */
function usageOf(dir, since) {
  const records = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")))
    .filter((record) => record.startedAt >= since);
  // The plugin runs as bin/plugin.js under node, or as the standalone executable; the TypeScript route's host is node's.
  const provider = records.filter((r) => /plugin\.js|plugin[/\\]main\.js|pulumi-resource-messaging|dynamic-provider/.test(r.argv));
  return {
    providerCpuMs: provider.reduce((sum, r) => sum + r.cpuMs, 0),
    providerMaxRssBytes: Math.max(0, ...provider.map((r) => r.maxRssBytes)),
  };
}

/** One route's project for a row: a workspace the Automation API drives. */
async function workspaceFor(auto, route, row, { dir, cliRoot, pluginDir, file, env }) {
  const pulumiCommand = await auto.PulumiCommand.get({ root: cliRoot, skipVersionCheck: true });
  const workDir = fs.mkdtempSync(path.join(dir, `${route}-`));
  if (route === "typescript") {
    // The package and @pulumi/pulumi as this repository has them (it links itself as node_modules/pulumi-messaging).
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(workDir, "node_modules"), "dir");
    const program = async () => {
      if (row.kind === "empty") return {};
      const pulumi = require("@pulumi/pulumi");
      const { MessageBatch } = require("pulumi-messaging");
      const args =
        row.kind === "file"
          ? { stream: STREAM, messagesFile: new pulumi.asset.FileAsset(file) }
          : { stream: STREAM, messages: Array.from({ length: row.messages }, (_, i) => sms(i)) };
      return { messageCount: new MessageBatch("reminders", args).messageCount };
    };
    return auto.LocalWorkspace.create({
      workDir,
      pulumiCommand,
      envVars: env,
      program,
      projectSettings: { name: "bench", runtime: "nodejs" },
    });
  }
  const properties =
    row.kind === "file"
      ? { stream: STREAM, messagesFile: { "fn::fileAsset": file } }
      : { stream: STREAM, messages: Array.from({ length: row.messages ?? 0 }, (_, i) => sms(i)) };
  const project = { name: "bench", runtime: "yaml", plugins: { providers: [{ name: "messaging", path: pluginDir }] } };
  const program = { resources: row.kind === "empty" ? {} : { reminders: { type: "messaging:index:MessageBatch", properties } } };
  if (row.mainYaml) fs.writeFileSync(path.join(workDir, "Main.yaml"), JSON.stringify(program));
  fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify(row.mainYaml ? project : { ...project, ...program }));
  return auto.LocalWorkspace.create({ workDir, pulumiCommand, envVars: env });
}

/** One `up`, timed, with the providers' CPU and peak RSS. */
async function timedUp(stack, usageDir) {
  fs.rmSync(usageDir, { recursive: true, force: true });
  fs.mkdirSync(usageDir);
  const since = Date.now();
  const engine = sampleEngineProcesses();
  const start = now();
  const result = await stack.up();
  const wallMs = msSince(start);
  // process-usage.js writes every 50 ms: let a process the engine stopped leave its last figures.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { wallMs, result, ...usageOf(usageDir, since), ...engine.stop() };
}

async function unchangedUp({ progress, startChild, exited }) {
  const auto = require("@pulumi/pulumi/automation");
  const { packPlugin } = require("../dist/scripts/release/pack-plugin");
  const cliBin = pulumiBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-bench-up-"));
  try {
    progress("unchanged up: packing the plugin, writing the files");
    const { directory: pluginDir } = await packPlugin(path.join(dir, "plugin"));
    const files = {};
    for (const row of ROWS.filter((r) => r.kind === "file")) {
      files[row.messages] = path.join(dir, `messages-${row.messages}.ndjson`);
      writeFile(files[row.messages], row.messages);
    }
    const usageDir = path.join(dir, "usage");
    const rows = [];
    for (const route of ["typescript", "yaml"]) {
      for (const row of ROWS.filter((r) => wanted(route, r))) {
        progress(`unchanged up: ${route}, ${row.name}`);
        const host = startChild("emulator-host.js");
        try {
          // Room for every message of the row, so each one's single acceptance can be checked.
          const options = { maxStoredMessages: 2_000_000, maxStoredBytes: 2 * 1024 ** 3 };
          const { url, apiKey } = await ask(host, { cmd: "start", options });
          const env = {
            PULUMI_HOME: path.join(dir, "home"),
            PULUMI_BACKEND_URL: `file://${fs.mkdtempSync(path.join(dir, "backend-"))}`,
            PULUMI_CONFIG_PASSPHRASE: "bench",
            PULUMI_SKIP_UPDATE_CHECK: "true",
            PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
            PATH: `${cliBin}${path.delimiter}${process.env.PATH}`,
            NODE_OPTIONS: `--require ${path.join(__dirname, "process-usage.js")}`,
            BENCH_USAGE_DIR: usageDir,
          };
          const workspace = await workspaceFor(auto, route, row, {
            dir,
            cliRoot: path.dirname(cliBin),
            pluginDir,
            file: files[row.messages],
            env,
          });
          const stack = await auto.Stack.create("bench", workspace);
          await stack.setAllConfig({ "messaging:apiKey": { value: apiKey, secret: true }, "messaging:baseUrl": { value: url } });
          const first = await timedUp(stack, usageDir);
          const stats = await ask(host, { cmd: "stats", count: true });
          const requestsBefore = (await ask(host, { cmd: "requests" })).count;
          const runs = [];
          for (let i = 0; i < REPEATS; i++) runs.push(await timedUp(stack, usageDir));
          const requestsAfter = (await ask(host, { cmd: "requests" })).count;
          const best = runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
          rows.push({
            route,
            name: row.name,
            messages: row.messages ?? 0,
            firstUpMs: first.wallMs,
            firstProviderMaxRssBytes: first.providerMaxRssBytes,
            acceptedOnce: row.kind === "empty" || (stats.messagesRecorded === row.messages && stats.distinctRecipients === row.messages),
            unchangedMs: best.wallMs,
            unchangedProviderCpuMs: Math.min(...runs.map((r) => r.providerCpuMs)),
            unchangedProviderMaxRssBytes: Math.max(...runs.map((r) => r.providerMaxRssBytes)),
            unchangedCliCpuMs: Math.min(...runs.map((r) => r.cliCpuMs)),
            unchangedLanguageHostCpuMs: Math.min(...runs.map((r) => r.languageHostCpuMs)),
            unchangedCalls: requestsAfter - requestsBefore,
            unchangedSteps: runs.map((r) => JSON.stringify(r.result.summary.resourceChanges)),
          });
          await ask(host, { cmd: "stop" });
        } catch (error) {
          // A row this build cannot deploy (e.g. a file batch before files were supported) is reported, not fatal.
          rows.push({
            route,
            name: row.name,
            messages: row.messages ?? 0,
            error: String(error.message ?? error)
              .split("\n")
              .slice(-3)
              .join(" "),
          });
        } finally {
          if (host.connected) host.disconnect();
          // A row that failed left its emulator serving, which would keep the host alive.
          if (host.exitCode === null && host.signalCode === null) host.kill();
          await exited(host);
        }
      }
    }
    for (const row of rows) {
      const empty = rows.find((r) => r.route === row.route && r.messages === 0);
      row.ratioToEmpty = row.error === undefined && empty ? row.unchangedMs / empty.unchangedMs : NaN;
    }
    return { repeats: REPEATS, rows };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const seconds = (ms) => (ms === undefined ? "-" : (ms / 1000).toFixed(2));

function printUnchangedUp(report, out) {
  const { table, mib } = require("./lib");
  out.push(
    `11. An unchanged pulumi up (Automation API up, no preview), best of ${report.repeats}, each row a new stack and emulator; ` +
      "provider = the plugin (YAML) or the dynamic provider host (TypeScript), its CPU over the whole up (start-up included); " +
      "CLI = every pulumi command of the up (the Automation API runs some after it); the TypeScript program runs in the bench's process",
  );
  out.push(
    table(
      [
        "route",
        "batch",
        "unchanged s",
        "x empty",
        "provider CPU s",
        "provider peak RSS MiB",
        "CLI CPU s",
        "YAML host CPU s",
        "calls",
        "first up s",
        "first up provider peak RSS MiB",
        "each once",
      ],
      report.rows.map((r) =>
        r.error !== undefined
          ? [r.route, r.name, "failed", "-", "-", "-", "-", "-", "-", "-", "-", "-"]
          : [
              r.route,
              r.name,
              (r.unchangedMs / 1000).toFixed(2),
              r.ratioToEmpty.toFixed(2),
              r.messages === 0 ? "-" : (r.unchangedProviderCpuMs / 1000).toFixed(2),
              r.messages === 0 ? "-" : mib(r.unchangedProviderMaxRssBytes),
              seconds(r.unchangedCliCpuMs),
              r.route === "yaml" ? seconds(r.unchangedLanguageHostCpuMs) : "-",
              r.unchangedCalls,
              (r.firstUpMs / 1000).toFixed(1),
              r.messages === 0 ? "-" : mib(r.firstProviderMaxRssBytes),
              r.acceptedOnce ? "yes" : "NO",
            ],
      ),
    ),
  );
  for (const r of report.rows.filter((row) => row.error !== undefined)) out.push(`   ! ${r.route}, ${r.name}: ${r.error.slice(0, 300)}`);
  out.push(
    "   goals: file batches <= 1.5x (30,000 lines) and <= 2x (1,000,000) the empty stack; 30,000 inline <= 10x (plugin) and <= 4x (TypeScript)",
  );
}

module.exports = { unchangedUp, printUnchangedUp };
