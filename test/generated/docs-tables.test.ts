/**
 * The field tables in docs/ are what `npm run generate` writes from the package schema (and so
 * from the zod schemas): a field added, removed or described anew fails here until regenerated.
 * In-process, without a build: the unit tier says so in seconds.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";
import { writeFieldTables } from "../../scripts/generate/docs-tables";

/** `--check` of the pages under `root`: the exit code and what it printed. */
async function check(root: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const [stdout, stderr]: string[][] = [[], []];
  const status = await writeFieldTables(root, true, { log: (line) => stdout.push(line), error: (line) => stderr.push(line) });
  return { status, stdout: stdout.map((line) => `${line}\n`).join(""), stderr: stderr.map((line) => `${line}\n`).join("") };
}

it("the field tables of docs/ are as `npm run generate` writes them", async () => {
  const result = await check(REPO_ROOT);
  expect(result.stderr).toBe("");
  const pages = result.stdout.trim().split("\n");
  expect(pages).toEqual(expect.arrayContaining(["docs/webhook-endpoint.md: up to date", "docs/message-batch.md: up to date"]));
  for (const page of pages) expect(page).toMatch(/: up to date$/);
  expect(result.status).toBe(0);
});

it("a table missing a field's row is stale, and the check names its page", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-fields-"));
  try {
    fs.cpSync(path.join(REPO_ROOT, "docs"), path.join(root, "docs"), { recursive: true });
    const page = path.join(root, "docs", "webhook-endpoint.md");
    const text = fs.readFileSync(page, "utf8");
    const edited = text.replace(/^\| `format` .*\n/m, "");
    expect(edited).not.toBe(text);
    fs.writeFileSync(page, edited);
    const result = await check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("docs/webhook-endpoint.md: stale field tables; run `npm run generate`");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
