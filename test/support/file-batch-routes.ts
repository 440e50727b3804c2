/**
 * A MessageBatch reading a file, by both routes: TypeScript (`test/fixtures/batch-stack`, a `pulumi.asset.FileAsset`, the
 * dynamic provider) and YAML (`fn::fileAsset`, the plugin). Each stack reads `file` (relative to its project) and sends again
 * when `trigger` changes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigEntries, PulumiStack, RealEngineSuite } from "./real-engine";

export const FILE_BATCH_YAML = `name: file-batch
runtime: yaml
config:
  file:
    type: string
  trigger:
    type: string
resources:
  reminders:
    type: messaging:index:MessageBatch
    properties:
      stream: transactional
      messagesFile:
        fn::fileAsset: \${file}
      triggers:
        - \${trigger}
outputs:
  messageCount: \${reminders.messageCount}
`;

/** One route: how to make a stack whose batch reads `file`. */
export interface FileBatchRoute {
  readonly name: string;
  /** Keeps the two routes' recipients apart in one emulator. */
  readonly firstRecipient: number;
  stack(suite: RealEngineSuite, file: string, trigger: string, config?: ConfigEntries): Promise<PulumiStack>;
}

/** The routes; a YAML stack's project goes in a new directory under `scratch`. */
export function fileBatchRoutes(scratch: string): FileBatchRoute[] {
  return [
    {
      name: "TypeScript (dynamic provider)",
      firstRecipient: 0,
      stack: (suite, file, trigger, config = {}) =>
        suite.stack("batch-stack", { config: { "batch-stack:file": file, "batch-stack:trigger": trigger, ...config } }),
    },
    {
      name: "YAML (plugin)",
      firstRecipient: 500_000,
      stack: (suite, file, trigger, config = {}) => {
        const projectDir = fs.mkdtempSync(path.join(scratch, "yaml-"));
        fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), FILE_BATCH_YAML);
        return suite.stack("file-batch", {
          projectDir,
          plugin: true,
          config: { "file-batch:file": file, "file-batch:trigger": trigger, ...config },
        });
      },
    },
  ];
}

/** Recipient `n`'s number: +2547 and eight digits. */
export const recipient = (n: number): string => `+2547${String(10000000 + n).padStart(8, "0")}`;

/** `count` NDJSON lines of distinct recipients from `first`; `body(n)` gives each line's text. */
export function ndjson(count: number, first = 0, body = (n: number) => `Reminder ${n}: your appointment is tomorrow`): string {
  return Array.from({ length: count }, (_, i) => `${JSON.stringify({ tos: [recipient(first + i)], body: body(first + i) })}\n`).join("");
}
