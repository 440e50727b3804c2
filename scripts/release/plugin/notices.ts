/**
 * THIRD-PARTY-NOTICES.txt of a plugin archive, made from what the bundle holds: every npm
 * package with a module among esbuild's inputs of the bundle (its metafile), with its version,
 * its licence as its package.json states it, and the full text of every licence file it ships
 * (LICENSE, LICENCE, COPYING, NOTICE, in any case or extension). esbuild's own `legalComments`
 * collect only the comments a package put in its code, which left zod, undici and protobufjs out.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Metafile } from "esbuild";

export interface BundledPackage {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  /** The licence files' names and texts. */
  readonly files: ReadonlyArray<{ readonly name: string; readonly text: string }>;
}

/** The npm packages whose modules esbuild put in the bundle, sorted by name; `cwd` is esbuild's working directory. */
export function bundledPackages(metafile: Metafile, cwd: string): BundledPackage[] {
  const roots = new Map<string, string>();
  for (const input of Object.keys(metafile.inputs)) {
    const at = input.lastIndexOf("node_modules/");
    if (at < 0) continue;
    const parts = input.slice(at + "node_modules/".length).split("/");
    const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
    roots.set(`${input.slice(0, at)}node_modules/${name}`, name);
  }
  const packages = [...roots.keys()].map((root) => {
    const dir = path.resolve(cwd, root);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string | { type: string };
    };
    const files = fs
      .readdirSync(dir)
      .filter((file) => /^(licen[cs]e|copying|notice)/i.test(file) && fs.statSync(path.join(dir, file)).isFile())
      .sort()
      .map((file) => ({ name: file, text: fs.readFileSync(path.join(dir, file), "utf8").trim() }));
    const license = typeof manifest.license === "object" ? manifest.license.type : (manifest.license ?? "not stated");
    return { name: manifest.name, version: manifest.version, license, files };
  });
  // One entry a name and version, though npm may have installed it in several places.
  const unique = new Map(packages.map((bundled) => [`${bundled.name}@${bundled.version}`, bundled]));
  return [...unique.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
}

/** The notices' text for `packages`, the plugin's runtime named first. */
export function noticesText(product: string, runtime: string, packages: readonly BundledPackage[]): string {
  const rule = "-".repeat(78);
  const lines = [
    `Third-party software in ${product}`,
    "",
    `${runtime}`,
    "",
    `The plugin's bundle holds code of these ${packages.length} npm packages (esbuild's list of the bundle's inputs):`,
    "",
    ...packages.map((bundled) => `  ${bundled.name} ${bundled.version} (${bundled.license})`),
    "",
  ];
  for (const bundled of packages) {
    lines.push(rule, `${bundled.name} ${bundled.version} (${bundled.license})`, rule, "");
    if (bundled.files.length === 0) lines.push(`The package ships no licence file; its package.json states ${bundled.license}.`, "");
    for (const file of bundled.files) lines.push(`${file.name}:`, "", file.text, "");
  }
  return `${lines.join("\n")}\n`;
}
