import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { programName } from "../../cli/program-name";

describe("programName: how the finish command is typed", () => {
  let dir: string;
  let script: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "program-name-"));
    script = path.join(dir, "main.js");
    writeFileSync(script, "");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const linkIn = (folder: string, target = script): string => {
    mkdirSync(folder, { recursive: true });
    symlinkSync(target, path.join(folder, "messaging"));
    return folder;
  };

  it("`messaging` when that name on PATH is this program (a global install)", () => {
    const bin = linkIn(path.join(dir, "global", "bin"));
    expect(programName({ PATH: ["/usr/bin", bin].join(path.delimiter) }, script)).toBe("messaging");
  });

  it("npx when it is only in a node_modules/.bin (npm's scripts put that on PATH; the user's shell does not)", () => {
    const bin = linkIn(path.join(dir, "project", "node_modules", ".bin"));
    expect(programName({ PATH: bin }, script)).toBe("npx -p pulumi-messaging messaging");
  });

  it("npx when `messaging` on PATH is another program, or not there at all", () => {
    const other = path.join(dir, "other.js");
    writeFileSync(other, "");
    expect(programName({ PATH: linkIn(path.join(dir, "elsewhere"), other) }, script)).toBe("npx -p pulumi-messaging messaging");
    expect(programName({ PATH: "" }, script)).toBe("npx -p pulumi-messaging messaging");
  });
});
