/**
 * The field tables in docs/ are what `npm run generate` writes from the package schema (and so
 * from the zod schemas): a field added, removed or described anew fails here until regenerated.
 * The generator runs built (`dist/scripts/generate/docs-tables.js --check`): prettier, which
 * formats the tables, cannot load inside jest's module sandbox.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root";
import { requireBuild } from "../support/environment";

const GENERATOR = path.join(REPO_ROOT, "dist", "scripts", "generate", "docs-tables.js");

beforeAll(() => requireBuild());

const check = (root: string) => spawnSync(process.execPath, [GENERATOR, "--check", "--root", root], { encoding: "utf8" });

it("the field tables of docs/ are as `npm run generate` writes them", () => {
  const result = check(REPO_ROOT);
  expect(result.stderr).toBe("");
  const pages = result.stdout.trim().split("\n");
  expect(pages).toEqual(expect.arrayContaining(["docs/webhook-endpoint.md: up to date", "docs/message-batch.md: up to date"]));
  for (const page of pages) expect(page).toMatch(/: up to date$/);
  expect(result.status).toBe(0);
});

it("a table missing a field's row is stale, and the check names its page", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-fields-"));
  try {
    fs.cpSync(path.join(REPO_ROOT, "docs"), path.join(root, "docs"), { recursive: true });
    const page = path.join(root, "docs", "webhook-endpoint.md");
    const text = fs.readFileSync(page, "utf8");
    const edited = text.replace(/^\| `format` .*\n/m, "");
    expect(edited).not.toBe(text);
    fs.writeFileSync(page, edited);
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("docs/webhook-endpoint.md: stale field tables; run `npm run generate`");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
