// An ESLint rule: no import cycle, type-only imports included. `import-x/no-cycle` skips those (they are gone at run time),
// but a loop of types still ties its files' layers together: each of them can only be understood, moved or split with the others.
// Static imports and re-exports count, `import type` and `import("…")` types among them; a lazy `await import()` or `require()`
// is a load at run time, decided there, and does not.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A relative specifier's file, as TypeScript resolves it here: `x.ts`, then `x/index.ts`. */
function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, "index.ts")].find((file) => fs.existsSync(file));
}

/** The static imports of a file's text: each with the file it resolves to and where it is written. */
function importsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
          ? node.argument.literal
          : ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)
            ? node.moduleReference.expression
            : undefined;
    const target = specifier && ts.isStringLiteral(specifier) ? resolve(file, specifier.text) : undefined;
    if (target) found.push({ target, start: node.getStart(source), end: node.getEnd() });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// One lint run reads each file at most once.
const onDisk = new Map();
const targetsOf = (file) => {
  if (!onDisk.has(file)) onDisk.set(file, [...new Set(importsOf(file, fs.readFileSync(file, "utf8")).map(({ target }) => target))]);
  return onDisk.get(file);
};

/** The files from `start` back to `file`, breadth first (the shortest loop), or undefined when there is none. */
function loopBack(start, file) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of targetsOf(current)) {
      if (next === file) {
        const route = [current];
        for (let step = cameFrom.get(current); step !== undefined; step = cameFrom.get(step)) route.unshift(step);
        return route;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}

export const importCycle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid import cycles, type-only imports included" },
    messages: { cycle: "Import cycle (type-only imports count): {{route}}" },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    if (!file.endsWith(".ts")) return {};
    return {
      Program() {
        const reported = new Set();
        for (const { target, start, end } of importsOf(file, context.sourceCode.text)) {
          if (reported.has(target)) continue;
          const route = loopBack(target, file);
          if (route === undefined) continue;
          reported.add(target);
          const names = [file, ...route, file].map((step) => path.relative(context.cwd, step));
          context.report({
            loc: { start: context.sourceCode.getLocFromIndex(start), end: context.sourceCode.getLocFromIndex(end) },
            messageId: "cycle",
            data: { route: names.join(" → ") },
          });
        }
      },
    };
  },
};
