/** The fenced code blocks of the repository's markdown files, and the markers before them (see test/docs). */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO } from "./installed-package";

/** One fenced code block and the markers before it. */
export interface CodeBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: "ts" | "js";
  readonly code: string;
  readonly prelude: string;
  readonly markers: readonly string[];
}

const LANGUAGES: Record<string, "ts" | "js"> = { ts: "ts", typescript: "ts", js: "js", javascript: "js" };

/** The TypeScript and JavaScript blocks of a markdown file, with their markers. */
export function codeBlocks(file: string): CodeBlock[] {
  const text = fs.readFileSync(path.join(REPO, file), "utf8");
  const blocks: CodeBlock[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (const match of text.matchAll(fence)) {
    const language = LANGUAGES[match[1]];
    if (language === undefined) continue;
    const before = text.slice(0, match.index);
    const line = before.split("\n").length;
    // Markers: the HTML comments between the previous paragraph and the fence.
    const markers: string[] = [];
    let prelude = "";
    const start = before.lastIndexOf("<!--");
    const comment = start < 0 ? null : /^<!--\s*docs-test:\s*([\s\S]*?)-->\s*$/.exec(before.slice(start));
    if (comment !== null) {
      const body = comment[1].trim();
      if (body.startsWith("prelude")) prelude = body.slice("prelude".length).trim();
      else markers.push(body);
    }
    blocks.push({ file, line, language, code: match[2], prelude, markers });
  }
  return blocks;
}
