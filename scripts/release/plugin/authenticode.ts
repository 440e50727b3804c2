/**
 * Removes a Windows executable's Authenticode signature and writes its PE checksum anew.
 *
 * npm's `node.exe` is signed by the Node.js project. postject adds the plugin as a new section,
 * after which that signature no longer covers the file: Windows tools then meet a signature that
 * fails and a PE checksum that is wrong (`osslsigncode verify`: "invalid PE checksum"). An
 * executable we cannot sign is better plainly unsigned: the certificate table's data directory
 * is emptied, its bytes zeroed, and the checksum computed as Windows' `CheckSumMappedFile` does.
 * `osslsigncode remove-signature` cannot do this here: it refuses a signature that is no longer
 * at the end of the file, which is where postject leaves it.
 */
import * as fs from "node:fs";

/** Where the fields this needs are in a PE file (PE32+ only: every runtime we pack is 64-bit). */
interface PeLayout {
  /** The optional header's CheckSum field. */
  readonly checksumOffset: number;
  /** The certificate table's data directory entry (IMAGE_DIRECTORY_ENTRY_SECURITY): file offset, then size. */
  readonly securityDirectory: number;
}

function layout(file: Buffer): PeLayout {
  if (file.toString("latin1", 0, 2) !== "MZ") throw new Error("not a PE file: no MZ header");
  const pe = file.readUInt32LE(0x3c);
  if (file.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error("not a PE file: no PE signature");
  const optional = pe + 4 + 20;
  if (file.readUInt16LE(optional) !== 0x20b) throw new Error("not a PE32+ executable");
  // (x86-64 or ARM64 alike: the layout of these fields does not depend on the machine.)
  // PE32+: CheckSum at 64, the data directories at 112, 8 bytes each; the certificate table is the fifth.
  return { checksumOffset: optional + 64, securityDirectory: optional + 112 + 4 * 8 };
}

/** The PE checksum of `file` (its CheckSum field counted as 0): 16-bit one's-complement-style sum, folded, plus the length. */
export function peChecksum(file: Buffer): number {
  const { checksumOffset } = layout(file);
  let sum = 0;
  const words = Math.floor(file.length / 2);
  for (let i = 0; i < words; i++) {
    const at = i * 2;
    if (at === checksumOffset || at === checksumOffset + 2) continue;
    sum += file.readUInt16LE(at);
    sum = (sum & 0xffff) + (sum >>> 16);
  }
  if (file.length % 2) {
    sum += file[file.length - 1];
    sum = (sum & 0xffff) + (sum >>> 16);
  }
  sum = (sum & 0xffff) + (sum >>> 16);
  return (sum + file.length) >>> 0;
}

/** What a PE file says of its signature and checksum. */
export function peSignatureState(file: Buffer): { signed: boolean; checksum: number; computed: number } {
  const { checksumOffset, securityDirectory } = layout(file);
  return {
    signed: file.readUInt32LE(securityDirectory + 4) !== 0,
    checksum: file.readUInt32LE(checksumOffset),
    computed: peChecksum(file),
  };
}

/** Strips `path`'s Authenticode signature in place and writes a valid PE checksum. */
export function stripAuthenticode(path: string): void {
  const file = fs.readFileSync(path);
  const { checksumOffset, securityDirectory } = layout(file);
  const offset = file.readUInt32LE(securityDirectory);
  const size = file.readUInt32LE(securityDirectory + 4);
  if (size !== 0) {
    if (offset + size > file.length) throw new Error(`the certificate table (${offset}+${size}) lies past the end of the file`);
    file.fill(0, offset, offset + size);
    file.writeUInt32LE(0, securityDirectory);
    file.writeUInt32LE(0, securityDirectory + 4);
  }
  file.writeUInt32LE(peChecksum(file), checksumOffset);
  fs.writeFileSync(path, file);
}
