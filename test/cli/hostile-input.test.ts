/**
 * Hostile input in `messaging send` files: each case is rejected by the built CLI with an
 * error naming the line (and field), nothing is sent, nothing crashes, no prototype is
 * polluted, and nothing is silently changed — table-driven.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const CLI = path.resolve(__dirname, "../../dist/cli/main.js");
const A = "+254700000001";
const OK = `{"tos":["${A}"],"body":"fine"}`;

let dir: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does).`);
  dir = mkdtempSync(path.join(os.tmpdir(), "messaging-hostile-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `messaging send --file NAME --dry-run` on the content; exit code and stderr. */
function dryRun(
  name: string,
  content: string | Buffer,
  extra: string[] = [],
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  writeFileSync(path.join(dir, name), content);
  return new Promise((resolve, reject) => {
    const args = [CLI, "send", "--file", name, "--dry-run", ...extra];
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr, stdout }));
  });
}

const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x74, 0x6f, 0x73, 0x22, 0x3a, 0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d, 0x7d]); // {"tos":["\xff\xfe"]}

const CASES: Array<[string, string, string | Buffer, RegExp]> = [
  [
    "invalid UTF-8 on a line (NDJSON)",
    "utf8.ndjson",
    Buffer.concat([Buffer.from(`${OK}\n`), INVALID_UTF8, Buffer.from(`\n${OK}\n`)]),
    /line 2: not valid UTF-8/,
  ],
  [
    "invalid UTF-8 in a body (NDJSON), not replaced by U+FFFD",
    "utf8-body.ndjson",
    Buffer.concat([Buffer.from(`{"tos":["${A}"],"body":"caf`), Buffer.from([0xc3]), Buffer.from('"}\n')]),
    /line 1: not valid UTF-8/,
  ],
  [
    "invalid UTF-8 in a CSV row",
    "utf8.csv",
    Buffer.concat([Buffer.from(`to,body\n${A},ok\n${A},`), Buffer.from([0xe2, 0x28, 0xa1]), Buffer.from("\n")]),
    /line 3: not valid UTF-8/,
  ],
  [
    "invalid UTF-8 in a JSON file",
    "utf8.json",
    Buffer.concat([Buffer.from(`[${OK},\n{"tos":["${A}"],"body":"`), Buffer.from([0xff]), Buffer.from('"}]')]),
    /line 2\): not valid UTF-8/,
  ],
  ["duplicate CSV header", "dup.csv", `to,body,body\n${A},one,two\n`, /line 1: duplicate column 'body' \(columns 2 and 3\)/],
  ["duplicate CSV model column", "dup-model.csv", `to,template_id,model.a,model.a\n${A},t,1,2\n`, /line 1: duplicate column 'model\.a'/],
  ["unknown CSV column (a typo would be dropped)", "typo.csv", `to,bdy\n${A},hi\n`, /line 1: unknown column 'bdy'/],
  ["__proto__ CSV column", "proto.csv", `to,body,__proto__\n${A},hi,x\n`, /line 1: column '__proto__' is not allowed/],
  [
    "model.__proto__ CSV column",
    "proto-model.csv",
    `to,template_id,model.__proto__\n${A},t,x\n`,
    /line 1: column 'model\.__proto__' is not allowed/,
  ],
  [
    "a number JSON.parse makes infinite",
    "inf.ndjson",
    `${OK}\n{"tos":["${A}"],"template":{"id":"t","model":{"amount":1e400}}}\n`,
    /line 2: template\.model\.amount: expected a finite number, got Infinity/,
  ],
  [
    "a negative infinite number in a JSON file",
    "inf.json",
    `[{"tos":["${A}"],"template":{"id":"t","model":{"x":[-1e999]}}}]`,
    /item 0 \(line 1\): template\.model\.x\[0\]: expected a finite number, got -Infinity/,
  ],
  [
    "NaN / Infinity literals are not JSON",
    "nan.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"x":NaN}}}\n`,
    /line 1: not valid JSON/,
  ],
  [
    "__proto__ key at the top of a message",
    "proto.ndjson",
    `{"tos":["${A}"],"body":"x","__proto__":{"polluted":true}}\n`,
    /line 1: \["__proto__"\]: the key __proto__ is not accepted/,
  ],
  [
    "__proto__ key inside a model",
    "proto-model.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"__proto__":{"polluted":true}}}}\n`,
    /line 1: template\.model\["__proto__"\]: the key __proto__ is not accepted/,
  ],
  [
    "constructor key at the top of a message",
    "constructor.ndjson",
    `{"tos":["${A}"],"body":"x","constructor":1}\n`,
    /line 1: constructor: unknown field/,
  ],
  [
    "prototype key at the top of a message",
    "prototype.json",
    `[{"tos":["${A}"],"body":"x","prototype":{}}]`,
    /item 0 \(line 1\): prototype: unknown field/,
  ],
  [
    "nesting deeper than the limit",
    "deep.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"a":${"[".repeat(50000)}${"]".repeat(50000)}}}}\n`,
    /line 1: template\.model\.a(\[0\])+: nested more than 32 levels deep/,
  ],
  ["a hole in a JSON array is not JSON", "holes.json", `[${OK},,${OK}]`, /not valid JSON \(line 1\): unexpected ','/],
  // the JSON reading rule (issue: silent changes)
  [
    "a duplicate key (the last would win)",
    "dup.ndjson",
    `{"tos":["${A}"],"body":"SEND THIS","body":"not this"}\n`,
    /line 1: body: this key appears more than once in the object/,
  ],
  [
    "a duplicate key in a JSON file's message",
    "dup.json",
    `[{"tos":["${A}"],"tos":[],"body":"x"}]`,
    /item 0 \(line 1\): tos: this key appears/,
  ],
  [
    "a duplicate top-level key in a JSON file",
    "dup-top.json",
    `{"messages":[${OK}],"messages":[]}`,
    /line 1\): the key "messages" appears twice/,
  ],
  [
    "an integer above 2^53",
    "big.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"id":9007199254740993}}}\n`,
    /line 1: template\.model\.id: 9007199254740993 .* read as 9007199254740992/,
  ],
  [
    "1e-400",
    "tiny.ndjson",
    `{"tos":["${A}"],"template":{"id":"t","model":{"x":1e-400}}}\n`,
    /line 1: template\.model\.x: 1e-400 is too small/,
  ],
  [
    "-0",
    "negzero.json",
    `[{"tos":["${A}"],"template":{"id":"t","model":{"x":-0}}}]`,
    /item 0 \(line 1\): template\.model\.x: expected a number other than -0/,
  ],
  // encodings and line endings
  ["a UTF-16 NDJSON file", "utf16.ndjson", Buffer.from(`${OK}\n`, "utf16le"), /utf16\.ndjson: the file is UTF-16 or UTF-32 .*only UTF-8/],
  [
    "a UTF-16 CSV file with its byte order mark",
    "utf16.csv",
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`to,body\n${A},x\n`, "utf16le")]),
    /the file is UTF-16LE \(byte order mark FF FE\)/,
  ],
  [
    "CR-only line endings with a bad second line",
    "mac.ndjson",
    `${OK}\r{"tos":["${A}"]}\r`,
    /line 2: \(root\): a message needs either body or template/,
  ],
  // CSV errors go through the error path with line and field
  [
    "a stray quote in a CSV value",
    "stray.csv",
    `to,body\n${A},say "hi"\n`,
    /stray\.csv: not valid CSV at line 2, field 2.*Invalid Opening Quote/,
  ],
  ["a space before a quoted CSV value", "space.csv", `to,body\n${A}, "hi"\n`, /not valid CSV at line 2, field 2.*Invalid Opening Quote/],
  ["CSV model values without a template id", "model.csv", `to,body,template_id,model.x\n${A},hi,,v\n`, /line 2: template\.id/],
  // a message no call can carry
  [
    "a single message over the per-request limit",
    "huge.ndjson",
    `${OK}\n{"tos":["${A}"],"body":"${"x".repeat(10 * 1024 * 1024 + 10)}"}\n`,
    /line 2: the message takes \d+ bytes as JSON; one call carries at most 10485760 bytes \(10 MiB\).*--batch-size 1/,
  ],
];

describe("messaging send --dry-run on hostile files", () => {
  it.each(CASES)("%s: exit 1, named, nothing sent", async (_, name, content, expected) => {
    const run = await dryRun(name, content);
    expect(run.stderr).toMatch(expected);
    expect(run.stderr).toContain("nothing was sent");
    expect(run.stderr).not.toMatch(/TypeError|RangeError|at .*\.js:\d+/); // no crash trace
    expect(run.code).toBe(1);
  });

  it("a CSV error is reported in --json too, with the file, line and field", async () => {
    const run = await dryRun("stray-json.csv", `to,body\n${A},say "hi"\n`, ["--json"]);
    expect(run.code).toBe(1);
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({ status: "invalid", file: "stray-json.csv" });
    expect(outcome.error).toMatch(/^not valid CSV at line 2, field 2/);
  });

  it("a JSON file's top-level stream is used, and a conflicting --stream is refused naming both", async () => {
    const file = `{"stream":"marketing","messages":[${OK}]}`;
    const used = await dryRun("stream.json", file);
    expect(used.code).toBe(0);
    expect(used.stdout).toContain("on stream 'marketing'");
    const conflict = await dryRun("stream.json", file, ["--stream", "transactional"]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/stream\.json: line 1: the file's "stream" is 'marketing' but --stream is 'transactional'/);
    const agreeing = await dryRun("stream.json", file, ["--stream", "marketing"]);
    expect(agreeing.code).toBe(0);
  });

  it("keeps CSV values exactly: quoted CRLF, unquoted spaces, empty model values (--dry-run passes)", async () => {
    const run = await dryRun("exact.csv", `to,body,template_id,model.x\r\n${A},"a\r\nb",,\r\n${A},  hello  ,,\r\n${A},,t,\r\n`);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("3 valid message(s)");
  });

  it("constructor and prototype as model names are ordinary data, kept as written", async () => {
    const run = await dryRun("names.ndjson", `{"tos":["${A}"],"template":{"id":"t","model":{"constructor":"c","prototype":"p"}}}\n`);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 valid message(s)");
  });
});
