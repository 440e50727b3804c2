/**
 * What docs/message-batch.md ("After an interrupted `pulumi up`") tells file-backend users, shown with the real CLI: a kill
 * during the CLI's in-place write of a state file's `.attrs` sidecar leaves that file empty, and every command then fails
 * "failed to load checkpoint: EOF"; deleting the empty file cures it; a backend URL with `?metadata=skip` (what the tests'
 * stacks use) writes no sidecar. The kill is stood in for by emptying the file: its window is too short to hit on purpose.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeRealEngine } from "../support/real-engine";

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-sidecar-"));
  fs.mkdirSync(path.join(scratch, "project"));
  fs.writeFileSync(path.join(scratch, "project", "Pulumi.yaml"), "name: sidecar\nruntime: yaml\n");
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs the CLI in the project against the backend `url`; resolves with how it ended and what it printed. */
function pulumi(url: string, args: string[]): Promise<{ code: number; output: string }> {
  const cliDir = process.env.PULUMI_MESSAGING_CLI_DIR!;
  return new Promise((resolve) => {
    execFile(
      path.join(cliDir, "pulumi"),
      [...args, "--non-interactive"],
      {
        cwd: path.join(scratch, "project"),
        env: {
          PATH: `${cliDir}${path.delimiter}${process.env.PATH}`,
          HOME: scratch,
          PULUMI_HOME: path.join(scratch, "home"),
          PULUMI_BACKEND_URL: url,
          PULUMI_CONFIG_PASSPHRASE: "sidecar",
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => fs.statSync(path.join(dir, file)).isFile());

describeRealEngine("the file backend's .attrs sidecar", () => {
  test("emptied (as a kill mid-write leaves it), every command fails 'failed to load checkpoint: EOF'; deleted, the stack works", async () => {
    const backend = fs.mkdirSync(path.join(scratch, "plain"), { recursive: true })!;
    const url = `file://${backend}`;
    expect((await pulumi(url, ["stack", "init", "s1"])).code).toBe(0);
    expect((await pulumi(url, ["up", "--yes"])).code).toBe(0);
    const sidecar = filesUnder(backend).find((file) => file.endsWith(`s1.json.attrs`));
    expect(sidecar).toBeDefined();

    fs.writeFileSync(path.join(backend, sidecar!), "");
    const broken = await pulumi(url, ["stack", "select", "s1"]);
    expect(broken.code).not.toBe(0);
    expect(broken.output).toContain("failed to load checkpoint: EOF");

    fs.rmSync(path.join(backend, sidecar!));
    expect((await pulumi(url, ["stack", "select", "s1"])).code).toBe(0);
    expect((await pulumi(url, ["up", "--yes"])).code).toBe(0);
  });

  test("with ?metadata=skip the backend writes no sidecar", async () => {
    const backend = fs.mkdirSync(path.join(scratch, "skip"), { recursive: true })!;
    const url = `file://${backend}?metadata=skip`;
    expect((await pulumi(url, ["stack", "init", "s1"])).code).toBe(0);
    expect((await pulumi(url, ["up", "--yes"])).code).toBe(0);
    const files = filesUnder(backend);
    expect(files.some((file) => file.endsWith("s1.json"))).toBe(true);
    expect(files.filter((file) => file.endsWith(".attrs"))).toEqual([]);
  });
});
