/**
 * A file asset as it crosses the provider protocol: `{ <sig key>: <asset sig>, hash, path }`. The engine adds the file's SHA-256
 * at registration; Check and Create get the path and hash, Diff, Read, Update's olds and Delete
 * the hash alone.
 */
import * as path from "node:path";
import { z } from "zod";

/** The signature key and value the Pulumi SDKs mark an asset with on the wire. */
export const ASSET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "c44067f5952c0a294b673a41bacd8c17" } as const;

/** A file asset: a path (relative to the program's directory, where the engine starts providers) and the engine's hash. */
export const FileAsset = z
  .object({
    [ASSET_SIG.key]: z.literal(ASSET_SIG.value, { error: "expected a file asset" }),
    path: z.string().optional(),
    hash: z.string().optional(),
    text: z.string().optional(),
    uri: z.string().optional(),
  })
  .refine((asset) => typeof asset.path === "string" && asset.path !== "", {
    error: "expected a file asset (FileAsset, fn::fileAsset): a string or remote asset is not read as a messages file",
  });
export type FileAsset = z.output<typeof FileAsset>;

export function assetHash(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const asset = value as Record<string, unknown>;
  return asset[ASSET_SIG.key] === ASSET_SIG.value && typeof asset.hash === "string" && asset.hash !== "" ? asset.hash : undefined;
}

/** The absolute path of a file asset: a relative one is taken from the working directory, as the engine hashed it. */
export const assetFilePath = (asset: FileAsset): string => path.resolve(asset.path!);
