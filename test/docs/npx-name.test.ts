/**
 * `npx messaging …` in a folder without this package runs somebody else's: on npm, `messaging` is
 * an unrelated package, which npx fetches and runs. Every command a user copies names our package:
 * `npx -p pulumi-messaging messaging …`. Checked in every markdown file a user reads and every
 * example file, with no exception: the command itself prints the same when it says how to run it
 * again (cli/program-name.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/environment";

function files(dir: string, keep: (file: string) => boolean): string[] {
  if (!fs.existsSync(path.join(REPO_ROOT, dir))) return [];
  return (fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[])
    .map((file) => path.join(dir, file).split(path.sep).join("/"))
    .filter((file) => !file.includes("node_modules/") && fs.statSync(path.join(REPO_ROOT, file)).isFile() && keep(file));
}

const READ_BY_USERS = [
  "README.md",
  "emulator/README.md",
  "scripts/pulumi-cli/sdkgen/sdk-readme.md",
  ...files("docs", (file) => file.endsWith(".md")),
  ...files("examples", (file) => /\.(md|js|ts|py|go|yaml|json)$/.test(file)),
  ...files("sdk", (file) => file.endsWith("README.md")),
];

test("the files users read are found", () => {
  expect(READ_BY_USERS).toEqual(expect.arrayContaining(["README.md", "docs/install.md", "docs/configuration.md", "sdk/nodejs/README.md"]));
});

test.each(READ_BY_USERS)("%s never says `npx messaging`", (file) => {
  const lines = fs
    .readFileSync(path.join(REPO_ROOT, file), "utf8")
    .split("\n")
    .map((line, index) => `${file}:${index + 1}: ${line}`)
    .filter((line) => /npx\s+(--\S+\s+)*messaging\b/.test(line));
  expect(lines).toEqual([]);
});

test("the check itself finds a bare `npx messaging`, with or without flags", () => {
  for (const line of ["npx messaging emulator", "run: npx --yes messaging send", "`npx  messaging`"]) {
    expect(/npx\s+(--\S+\s+)*messaging\b/.test(line)).toBe(true);
  }
  expect(/npx\s+(--\S+\s+)*messaging\b/.test("npx -p pulumi-messaging messaging emulator")).toBe(false);
});
