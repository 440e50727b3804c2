/**
 * The release's plugin executables, checked for what cannot be run here:
 * - darwin-arm64 and darwin-amd64 (Bun 1.4.4 with the plugin inside): Mach-O 64-bit executables of
 *   their CPU, signed ad hoc with every page hash valid (macOS kills an arm64 executable whose
 *   signature does not check), embedding byte for byte the JavaScript module of the linux-x64 Bun
 *   build, which test/plugin/bun-runtime.test.ts runs under the real CLI;
 * - windows-amd64 (Node.js with the plugin inside) and windows-arm64 (Bun): no stale Authenticode
 *   signature, a valid PE checksum, as `osslsigncode verify` (Debian's package; CI installs it)
 *   reports; windows-arm64 a PE for ARM64 embedding the plugin's module (Bun folds
 *   `process.platform` per target, so not the linux build's byte for byte);
 * - every archive: THIRD-PARTY-NOTICES.txt names every npm package the bundle holds, with its
 *   licence text.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packPlugin, PLATFORMS, type Platform } from "../../scripts/release/pack-plugin";
import { checkSignature, CPU_TYPE, parseMachO, sectionBytes } from "../../scripts/release/plugin/macho";
import { peSignatureState } from "../../scripts/release/plugin/authenticode";
import { lookPath } from "../support/provider-plugin";

let scratch: string;
let archives: Partial<Record<Platform, string>>;
let bunLinux: Buffer;

const member = (archive: string, name: string): Buffer =>
  execFileSync("tar", ["-xzOf", archive, `./${name}`], { maxBuffer: 512 * 1024 * 1024 });

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-messaging-binaries-"));
  archives = (await packPlugin(path.join(scratch, "out"), PLATFORMS)).archives;
  const bun = await packPlugin(path.join(scratch, "bun"), ["linux-amd64"], { runtimes: { "linux-amd64": "bun" } });
  bunLinux = fs.readFileSync(bun.executable);
});
afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/**
 * The JavaScript module Bun embeds, as its bytes: from its shebang to the module's name after it.
 * Bun stores the source as Latin-1, or as UTF-16LE when it holds other characters (this one does).
 */
function embeddedModule(bytes: Buffer): { raw: Buffer; text: string } {
  const shebang = "#!/usr/bin/env node\n// @bun\n";
  const wide = bytes.indexOf(Buffer.from(shebang, "utf16le"));
  const start = wide >= 0 ? wide : bytes.indexOf(shebang);
  expect(start).toBeGreaterThanOrEqual(0);
  // The module's name follows its source: /$bunfs/root/… in a Mach-O or ELF executable, B:/~BUN/root/… in a Windows one.
  const ends = ["/$bunfs/root/pulumi-resource-messaging\0", "B:/~BUN/root/pulumi-resource-messaging.exe\0"]
    .map((marker) => bytes.indexOf(marker, start))
    .filter((at) => at > start);
  expect(ends).toHaveLength(1);
  const end = ends[0];
  const raw = bytes.subarray(start, end);
  return { raw, text: raw.toString(wide >= 0 ? "utf16le" : "latin1") };
}

test.each([
  ["darwin-arm64", CPU_TYPE.arm64],
  ["darwin-amd64", CPU_TYPE.x86_64],
] as const)(
  "%s: a Mach-O executable of its CPU, signed ad hoc, every page hash valid, embedding the linux-x64 Bun build's module",
  (platform, cpu) => {
    const manifest = JSON.parse(member(archives[platform]!, "package.json").toString("utf8"));
    expect(manifest.pulumiPlugin).toEqual({ platform, standalone: true, bun: "1.4.4" });
    const executable = member(archives[platform]!, "pulumi-resource-messaging");
    const macho = parseMachO(executable);
    expect([macho.cputype, macho.filetype]).toEqual([cpu, 2]);
    const signature = checkSignature(executable);
    expect(signature).toMatchObject({ adhoc: true, hashType: 2, pageSize: 4096, badPages: 0, blobs: [0] });
    expect(signature.pages).toBeGreaterThan(20_000);
    // Every byte before the signature is covered, the load commands included.
    expect(signature.codeLimit).toBe(macho.signature!.dataoff);
    // The executable ends with its signature: nothing unsigned after it.
    expect(macho.signature!.dataoff + macho.signature!.datasize).toBe(executable.length);

    const embedded = sectionBytes(executable, "__BUN", "__bun");
    expect(embedded).toBeDefined();
    const module = embeddedModule(embedded!);
    expect(module.raw.length).toBeGreaterThan(1_000_000);
    expect(module.text).toContain("MESSAGING_API_KEY");
    expect(module.text).toContain("WebhookEndpoint");
    expect(module.raw.equals(embeddedModule(bunLinux).raw)).toBe(true);
  },
);

test("the check finds a broken page and an unsigned file", () => {
  const executable = member(archives["darwin-arm64"]!, "pulumi-resource-messaging");
  executable[100_000] ^= 0xff;
  expect(checkSignature(executable).badPages).toBe(1);
  expect(() => checkSignature(Buffer.concat([executable.subarray(0, 32), Buffer.alloc(64)]))).toThrow();
});

test.each(["windows-amd64", "windows-arm64"] as const)("%s: unsigned, with a valid PE checksum (osslsigncode verify)", (platform) => {
  const exe = path.join(scratch, `${platform}.exe`);
  const bytes = member(archives[platform]!, "pulumi-resource-messaging.exe");
  fs.writeFileSync(exe, bytes);
  // IMAGE_FILE_MACHINE_AMD64 or _ARM64.
  expect(bytes.readUInt16LE(bytes.readUInt32LE(0x3c) + 4)).toBe(platform === "windows-amd64" ? 0x8664 : 0xaa64);
  if (platform === "windows-arm64") {
    // Bun folds `process.platform` per target, so a Windows build's module is not the linux one's byte for byte (darwin's is).
    const module = embeddedModule(bytes);
    expect(module.raw.length).toBeGreaterThan(1_000_000);
    expect(module.text).toContain("MESSAGING_API_KEY");
    expect(module.text).toContain("WebhookEndpoint");
  }
  const state = peSignatureState(bytes);
  expect(state.signed).toBe(false);
  expect(state.checksum).toBe(state.computed);
  const osslsigncode = lookPath("osslsigncode");
  if (!osslsigncode) {
    if (process.env.CI === "true") throw new Error("osslsigncode is not on PATH: .ci/run installs it");
    process.stderr.write("plugin binaries: osslsigncode verify skipped: not on PATH (apt-get install osslsigncode)\n");
    return;
  }
  const verified = spawnSync(osslsigncode, ["verify", "-in", exe], { encoding: "utf8" });
  const said = verified.stdout + verified.stderr;
  expect(said).toContain("No signature found");
  expect(said).toMatch(/^PE checksum\s*: [0-9A-F]{8}$/m);
  expect(said).not.toMatch(/invalid PE checksum/);
});

test("every archive's THIRD-PARTY-NOTICES.txt names each package the bundle holds, with its licence's text", () => {
  for (const platform of PLATFORMS) {
    const notices = member(archives[platform]!, "THIRD-PARTY-NOTICES.txt").toString("utf8");
    const listed = [...notices.matchAll(/^ {2}(\S+) (\d\S*) \((.+)\)$/gm)].map((match) => match[1]);
    expect(listed).toEqual(expect.arrayContaining(["zod", "undici", "protobufjs", "@grpc/grpc-js", "@pulumi/pulumi", "google-protobuf"]));
    for (const name of listed) {
      const section = notices.split(/^-{78}$/m).findIndex((part) => part.trim().startsWith(`${name} `));
      expect([name, section]).not.toEqual([name, -1]);
    }
    expect(notices).toMatch(/MIT License|Permission is hereby granted/);
    expect(notices).toContain(platform.startsWith("darwin") || platform === "windows-arm64" ? "Bun 1.4.4" : "Node.js 22.23.3");
  }
});
