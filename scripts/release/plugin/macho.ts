/**
 * Mach-O executables (64-bit, one architecture) as the darwin plugins need them: read their
 * header, segments and code signature; check every page hash of the signature; and sign one ad
 * hoc, on Linux, as Apple's `codesign -s -` and the linker's ad hoc signature do.
 *
 * Why: a darwin-arm64 executable without a valid signature is killed at start by macOS, and
 * Bun's darwin-x64 runtime keeps Oven's hardened-runtime signature, which no longer matches once
 * the plugin is embedded (docs/plugin.md). An ad hoc signature is a CodeDirectory alone: the
 * SHA-256 of every 4 KiB page up to the signature, no certificate. It is what Bun itself writes
 * for darwin-arm64, and the signature written here has the same form.
 */
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const CS_HASHTYPE_SHA256 = 2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const PAGE_SHIFT = 12;
const PAGE = 1 << PAGE_SHIFT;

/** The CPU types of the two darwin platforms. */
export const CPU_TYPE = { arm64: 0x0100000c, x86_64: 0x01000007 } as const;

export interface Segment {
  readonly name: string;
  /** Offset of the LC_SEGMENT_64 command in the file. */
  readonly command: number;
  readonly fileoff: number;
  readonly filesize: number;
  readonly sections: ReadonlyArray<{ readonly name: string; readonly offset: number; readonly size: number }>;
}

export interface MachO {
  readonly cputype: number;
  /** MH_EXECUTE is 2. */
  readonly filetype: number;
  readonly segments: readonly Segment[];
  /** The LC_CODE_SIGNATURE command's offset in the file, and the signature's place. */
  readonly signature?: { readonly command: number; readonly dataoff: number; readonly datasize: number };
}

export function parseMachO(file: Buffer): MachO {
  if (file.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("not a 64-bit Mach-O file (a fat file is not handled)");
  const ncmds = file.readUInt32LE(16);
  const segments: Segment[] = [];
  let signature: MachO["signature"];
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = file.readUInt32LE(at);
    const size = file.readUInt32LE(at + 4);
    if (cmd === LC_SEGMENT_64) {
      const sections = [];
      for (let j = 0; j < file.readUInt32LE(at + 64); j++) {
        const section = at + 72 + j * 80;
        sections.push({
          name: file.toString("latin1", section, section + 16).replace(/\0+$/, ""),
          size: Number(file.readBigUInt64LE(section + 40)),
          offset: file.readUInt32LE(section + 48),
        });
      }
      segments.push({
        name: file.toString("latin1", at + 8, at + 24).replace(/\0+$/, ""),
        command: at,
        fileoff: Number(file.readBigUInt64LE(at + 40)),
        filesize: Number(file.readBigUInt64LE(at + 48)),
        sections,
      });
    } else if (cmd === LC_CODE_SIGNATURE) {
      signature = { command: at, dataoff: file.readUInt32LE(at + 8), datasize: file.readUInt32LE(at + 12) };
    }
    at += size;
  }
  return { cputype: file.readUInt32LE(4), filetype: file.readUInt32LE(12), segments, signature };
}

/** What a signature's CodeDirectory says, and how many of its page hashes the file matches. */
export interface SignatureCheck {
  readonly adhoc: boolean;
  readonly flags: number;
  readonly identifier: string;
  readonly hashType: number;
  readonly pageSize: number;
  readonly codeLimit: number;
  readonly pages: number;
  readonly badPages: number;
  /** The signature's blobs by type (0 the CodeDirectory, 0x10000 a CMS signature). */
  readonly blobs: readonly number[];
}

/** Reads the embedded signature and checks each code page's hash against the file. */
export function checkSignature(file: Buffer): SignatureCheck {
  const { signature } = parseMachO(file);
  if (!signature) throw new Error("no LC_CODE_SIGNATURE: the executable is unsigned");
  const start = signature.dataoff;
  if (file.readUInt32BE(start) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error("the signature is not an embedded signature SuperBlob");
  const blobs: number[] = [];
  let directory = -1;
  for (let i = 0; i < file.readUInt32BE(start + 8); i++) {
    const type = file.readUInt32BE(start + 12 + i * 8);
    blobs.push(type);
    if (type === 0) directory = start + file.readUInt32BE(start + 16 + i * 8);
  }
  if (directory < 0 || file.readUInt32BE(directory) !== CSMAGIC_CODEDIRECTORY) throw new Error("the signature has no CodeDirectory");
  const flags = file.readUInt32BE(directory + 12);
  const hashOffset = file.readUInt32BE(directory + 16);
  const identOffset = file.readUInt32BE(directory + 20);
  const pages = file.readUInt32BE(directory + 28);
  const codeLimit = file.readUInt32BE(directory + 32);
  const hashSize = file[directory + 36];
  const hashType = file[directory + 37];
  const pageSize = 1 << file[directory + 39];
  const algorithm = hashType === CS_HASHTYPE_SHA256 ? "sha256" : "sha1";
  let badPages = 0;
  for (let page = 0; page < pages; page++) {
    const digest = createHash(algorithm)
      .update(file.subarray(page * pageSize, Math.min((page + 1) * pageSize, codeLimit)))
      .digest();
    const slot = directory + hashOffset + page * hashSize;
    if (!digest.equals(file.subarray(slot, slot + hashSize))) badPages++;
  }
  return {
    adhoc: (flags & CS_ADHOC) !== 0,
    flags,
    identifier: file.toString("latin1", directory + identOffset, file.indexOf(0, directory + identOffset)),
    hashType,
    pageSize,
    codeLimit,
    pages,
    badPages,
    blobs,
  };
}

const align = (value: number, to: number): number => Math.ceil(value / to) * to;

/**
 * The file signed ad hoc: whatever signature it had is replaced by a SuperBlob holding one
 * CodeDirectory (version 0x20400, ad hoc and linker-signed flags, SHA-256 of each 4 KiB page up to
 * the signature, the executable segment's bounds), placed where the old one began, with
 * LC_CODE_SIGNATURE and __LINKEDIT resized to it. The file must end with its signature, as a
 * linker writes it.
 */
export function signAdHoc(input: Buffer, identifier: string): Buffer {
  const macho = parseMachO(input);
  if (!macho.signature) throw new Error("no LC_CODE_SIGNATURE to fill: the linker reserves one");
  const { dataoff, datasize } = macho.signature;
  if (dataoff + datasize !== input.length) throw new Error("the signature is not the last thing in the file");
  const linkedit = macho.segments.find((segment) => segment.name === "__LINKEDIT");
  const text = macho.segments.find((segment) => segment.name === "__TEXT");
  if (!linkedit || !text) throw new Error("no __LINKEDIT or __TEXT segment");

  const codeLimit = dataoff;
  const pages = Math.ceil(codeLimit / PAGE);
  const ident = Buffer.from(`${identifier}\0`, "latin1");
  const headerSize = 88; // the CodeDirectory's fixed fields up to execSegFlags (version 0x20400)
  const hashOffset = headerSize + ident.length;
  const directorySize = hashOffset + pages * 32;
  const superSize = 12 + 8 + directorySize;
  const newSize = superSize;

  const out = Buffer.alloc(dataoff + newSize);
  input.copy(out, 0, 0, dataoff);
  // The load commands first: the page hashes cover them.
  out.writeUInt32LE(newSize, macho.signature.command + 12);
  const linkeditSize = dataoff + newSize - linkedit.fileoff;
  out.writeBigUInt64LE(BigInt(linkeditSize), linkedit.command + 48); // filesize
  out.writeBigUInt64LE(BigInt(align(linkeditSize, PAGE)), linkedit.command + 32); // vmsize, as the linker rounds it

  const s = dataoff;
  out.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, s);
  out.writeUInt32BE(superSize, s + 4);
  out.writeUInt32BE(1, s + 8);
  out.writeUInt32BE(0, s + 12); // CSSLOT_CODEDIRECTORY
  out.writeUInt32BE(20, s + 16);
  const d = s + 20;
  out.writeUInt32BE(CSMAGIC_CODEDIRECTORY, d);
  out.writeUInt32BE(directorySize, d + 4);
  out.writeUInt32BE(0x20400, d + 8);
  out.writeUInt32BE(CS_ADHOC | CS_LINKER_SIGNED, d + 12);
  out.writeUInt32BE(hashOffset, d + 16);
  out.writeUInt32BE(headerSize, d + 20); // identOffset
  out.writeUInt32BE(0, d + 24); // nSpecialSlots
  out.writeUInt32BE(pages, d + 28);
  out.writeUInt32BE(codeLimit, d + 32);
  out[d + 36] = 32;
  out[d + 37] = CS_HASHTYPE_SHA256;
  out[d + 38] = 0; // platform
  out[d + 39] = PAGE_SHIFT;
  // spare2 (d+40), scatterOffset (d+44), teamOffset (d+48), spare3 (d+52), codeLimit64 (d+56): zero.
  out.writeBigUInt64BE(BigInt(text.fileoff), d + 64); // execSegBase
  out.writeBigUInt64BE(BigInt(text.filesize), d + 72); // execSegLimit
  out.writeBigUInt64BE(BigInt(CS_EXECSEG_MAIN_BINARY), d + 80);
  ident.copy(out, d + headerSize);
  for (let page = 0; page < pages; page++) {
    createHash("sha256")
      .update(out.subarray(page * PAGE, Math.min((page + 1) * PAGE, codeLimit)))
      .digest()
      .copy(out, d + hashOffset + page * 32);
  }
  return out;
}

/** A section's bytes, by segment and section name. */
export function sectionBytes(file: Buffer, segment: string, section: string): Buffer | undefined {
  const found = parseMachO(file)
    .segments.find((candidate) => candidate.name === segment)
    ?.sections.find((candidate) => candidate.name === section);
  return found ? file.subarray(found.offset, found.offset + found.size) : undefined;
}
