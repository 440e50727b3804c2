/** What `npm pack` ships: docs whose links resolve, the licence, and the manifest fields users rely on. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PackedTarball } from "../support/installed-package";

let packed: PackedTarball;
let files: Set<string>;
let extracted: string;

beforeAll(() => {
  packed = new PackedTarball();
  extracted = path.join(packed.root, "extracted");
  fs.mkdirSync(extracted);
  execFileSync("tar", ["-xzf", packed.tarball, "-C", extracted, "--strip-components=1"]);
  files = new Set(
    execFileSync("tar", ["-tzf", packed.tarball], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((entry) => entry.replace(/^package\//, "")),
  );
});

afterAll(() => packed?.cleanup());

/** Relative link targets of a markdown file (no URLs, no pure anchors), resolved from its folder. */
function relativeLinks(markdownFile: string): string[] {
  const text = fs.readFileSync(path.join(extracted, markdownFile), "utf8");
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
  return targets
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith("#"))
    .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(markdownFile), target.split("#")[0])));
}

describe("the packed tarball", () => {
  it("holds the README, CHANGELOG and an Apache-2.0 LICENSE matching package.json", () => {
    for (const file of ["README.md", "CHANGELOG.md", "LICENSE", "package.json"]) expect(files).toContain(file);
    const manifest = JSON.parse(fs.readFileSync(path.join(extracted, "package.json"), "utf8"));
    expect(manifest.license).toBe("Apache-2.0");
    expect(fs.readFileSync(path.join(extracted, "LICENSE"), "utf8")).toContain(
      "Apache License\n                           Version 2.0, January 2004",
    );
    expect(manifest.repository).toEqual(expect.objectContaining({ type: "git" }));
    expect(manifest.engines.node).toMatch(/^>=20/);
    expect(manifest.peerDependenciesMeta).toEqual({ "@pulumi/pulumi": { optional: true } });
  });

  it("every relative link of every packed markdown file resolves inside the tarball", () => {
    const markdown = [...files].filter((file) => file.endsWith(".md"));
    expect(markdown).toEqual(expect.arrayContaining(["README.md", "emulator/README.md"]));
    const broken = markdown.flatMap((file) =>
      relativeLinks(file)
        .filter((target) => ![...files].some((f) => f === target || f.startsWith(`${target}/`)))
        .map((target) => `${file} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("every export and typesVersions target exists", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(extracted, "package.json"), "utf8"));
    const targets: string[] = [];
    for (const value of Object.values(manifest.exports) as Array<string | Record<string, string>>) {
      targets.push(...(typeof value === "string" ? [value] : Object.values(value)));
    }
    for (const paths of Object.values(manifest.typesVersions["*"]) as string[][]) targets.push(...paths);
    targets.push(manifest.main, manifest.types, ...Object.values(manifest.bin as Record<string, string>));
    const missing = targets.map((target) => target.replace(/^\.\//, "")).filter((target) => !files.has(target));
    expect(missing).toEqual([]);
    // Old stacks' serialized providers require this exact path.
    expect(manifest.exports["./dist/provider/runtime"]).toBe("./dist/provider/runtime.js");
  });
});
