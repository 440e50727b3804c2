/**
 * What `npm run lint` refuses, shown on files written for the test (not on the repository, which
 * must pass): an import cycle, a loop of type-only imports, and the emulator's server importing the client (the client of the
 * emulator's own API, `emulator/operations/emulator-client.ts`, may).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { REPO_ROOT } from "../../scripts/repo-root";

let root: string;

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

/** The rules each file broke, by its path relative to the scratch project: eslint run as `npm run lint` runs it, with this repository's config. */
function brokenRules(): Record<string, string[]> {
  const eslint = path.join(REPO_ROOT, "node_modules", "eslint", "bin", "eslint.js");
  const run = spawnSync(process.execPath, [eslint, "--config", path.join(REPO_ROOT, "eslint.config.mjs"), "--format", "json", "."], {
    cwd: root,
    encoding: "utf8",
  });
  const results = JSON.parse(run.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null }> }>;
  return Object.fromEntries(
    results.map((result) => [path.relative(root, result.filePath), result.messages.map((message) => String(message.ruleId))]),
  );
}

let broken: Record<string, string[]>;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-lint-"));
  write({
    "schemas/first.ts": 'import { second } from "./second";\nexport const first = (): number => second() + 1;\n',
    "schemas/second.ts": 'import { first } from "./first";\nexport const second = (): number => (first.length > 0 ? 1 : 0);\n',
    "schemas/type-only.ts": 'import type { Shape } from "./shape";\nexport const size = (shape: Shape): number => shape.size;\n',
    "schemas/shape.ts":
      'import { size } from "./type-only";\nexport interface Shape { size: number }\nexport const half = (shape: Shape): number => size(shape) / 2;\n',
    "schemas/unrelated.ts": 'import type { Shape } from "./shape";\nexport const area = (shape: Shape): number => shape.size ** 2;\n',
    "client/http.ts": "export const send = (): string => 'sent';\n",
    "emulator/routes/route.ts": 'import { send } from "../../client/http";\nexport const route = (): string => send();\n',
    "emulator/operations/emulator-client.ts": 'import { send } from "../../client/http";\nexport const call = (): string => send();\n',
  });
  broken = brokenRules();
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("an import cycle is an error, and so is a loop closed only by a type import (repo/import-cycle; import-x skips it)", () => {
  expect(broken["schemas/first.ts"]).toContain("import-x/no-cycle");
  expect(broken["schemas/second.ts"]).toContain("import-x/no-cycle");
  expect(broken["schemas/type-only.ts"]).toEqual(["repo/import-cycle"]);
  expect(broken["schemas/shape.ts"]).toEqual(["repo/import-cycle"]);
  expect(broken["schemas/unrelated.ts"]).toEqual([]);
});

test("the emulator's server may not import client/; the emulator's own client may", () => {
  expect(broken[path.join("emulator", "routes", "route.ts")]).toEqual(["no-restricted-imports"]);
  expect(broken[path.join("emulator", "operations", "emulator-client.ts")]).toEqual([]);
});
