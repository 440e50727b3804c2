"use strict";
/**
 * Writes, from the zod schemas and the two registries (the kinds, `provider/kinds/index.ts`; the operations, `OPERATIONS`):
 * - `schemas/wire-types.generated.ts`, the wire format's types (every `export type X = wire.X` of a schema module);
 * - `provider/kinds/kind-types.generated.ts`, each kind's inputs and state (the schemas its `defineKind` names);
 * - `client/operation-methods.generated.ts`, `MessagingClient`'s method per operation;
 * - `provider/resources.generated.ts`, the package's export of each kind's resource class.
 * The types are plain TypeScript, so that the declarations of the package root, `/client` and `/receiver` reach no zod type
 * (zod's own declarations fail under the tsconfig `pulumi new typescript` writes). A new kind, operation or wire type needs no
 * edit here.
 *
 * The types are not translated from the schemas by hand rules: the TypeScript checker computes
 * `z.output` (or `z.input`) of each schema, and this prints what it computed, naming the wire
 * types it meets inside another. Documentation comes from the schema module (the JSDoc of the
 * type's `export type` line there, else of the schema) and from each shape property's JSDoc,
 * else its `.meta({ description })`; a method's from its operation's row.
 * Before anything is written, a second program checks that every printed type is the same type
 * as its schema's (`schemas/same-type.ts`).
 *
 * `npm run generate` runs it; `test/generated/generated-code.test.ts` fails when a file is stale.
 * Plain JavaScript, so that it runs without a build: a stale file may be what keeps the build
 * from compiling.
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "..", "..");

/** A relative module specifier's path (without extension) from a file's folder: `x` or `x/index`. */
function modulePath(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  return fs.existsSync(`${base}.ts`) ? base : path.join(base, "index");
}

const sourceOf = (file) => ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
const exported = (node) => (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/**
 * The wire types: every `export type X = wire.X;` of a module of `schemas/` (the line that gives the schema `X` its plain type)
 * names one, the type of that module's schema `X`. `XInput`, where the module has no schema of that name, is the input side of
 * `X` (what a caller may leave out). A schema module's new type is its line there: this list needs no edit.
 */
function wireTypes() {
  const dir = path.join(ROOT, "schemas");
  const modules = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".generated.ts"))
    .sort();
  return modules.flatMap((name) => {
    const source = sourceOf(path.join(dir, name));
    const constants = new Set(
      source.statements
        .filter(ts.isVariableStatement)
        .flatMap((statement) => statement.declarationList.declarations.map((d) => d.name.getText())),
    );
    const module = `schemas/${name.replace(/\.ts$/, "")}`;
    return source.statements
      .filter((node) => ts.isTypeAliasDeclaration(node) && exported(node) && ts.isTypeReferenceNode(node.type))
      .filter((node) => node.type.typeName.getText() === `wire.${node.name.text}`)
      .map(({ name: { text } }) =>
        !constants.has(text) && text.endsWith("Input") && constants.has(text.slice(0, -"Input".length))
          ? { name: text, module, schema: text.slice(0, -"Input".length), io: "input" }
          : { name: text, module },
      );
  });
}

/** The object literal a `const` is initialised with, through `as const` and `satisfies`. */
function objectLiteral(node) {
  while (node && (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))) node = node.expression;
  return node && ts.isObjectLiteralExpression(node) ? node : undefined;
}

/** The kinds of the registry (`provider/kinds/index.ts`, one `export { kind } from "./folder"` each): each one's folder. */
function registryFolders() {
  const registry = path.join(ROOT, "provider/kinds/index.ts");
  return sourceOf(registry)
    .statements.filter((node) => ts.isExportDeclaration(node) && node.moduleSpecifier)
    .map((node) => path.dirname(`${modulePath(registry, node.moduleSpecifier.text)}.ts`));
}

/**
 * Each kind's types: its `defineKind({ inputs, state })` (in its folder's `index.ts`) names the schemas, imported there, whose
 * input side are its inputs and output side its state. Every kind also records where it lives (`LivesIn`).
 */
function kindTypes() {
  const kinds = registryFolders().flatMap((folder) => {
    const file = path.join(folder, "index.ts");
    const source = sourceOf(file);
    let spec;
    const visit = (node) => {
      if (ts.isCallExpression(node) && node.expression.getText() === "defineKind") spec = objectLiteral(node.arguments[0]);
      else ts.forEachChild(node, visit);
    };
    visit(source);
    const named = (key) => {
      const value = spec?.properties.find((property) => property.name?.getText() === key)?.initializer;
      if (!value || !ts.isIdentifier(value))
        throw new Error(`${path.relative(ROOT, file)}: defineKind's ${key} must name a schema imported there`);
      const from = source.statements.find(
        (node) =>
          ts.isImportDeclaration(node) && node.importClause?.namedBindings?.elements?.some((element) => element.name.text === value.text),
      );
      if (!from) throw new Error(`${path.relative(ROOT, file)}: ${value.text} is not imported there`);
      return { name: value.text, module: path.relative(ROOT, modulePath(file, from.moduleSpecifier.text)) };
    };
    return [{ ...named("inputs"), io: "input" }, named("state")];
  });
  return [{ name: "LivesIn", module: "provider/kinds/define-kind" }, ...kinds];
}

/** The service's operations, the rows of `OPERATIONS` (schemas/operations.ts): each one's name and JSDoc, in order. */
function operations() {
  const source = sourceOf(path.join(ROOT, "schemas/operations.ts"));
  const declaration = source.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations)
    .find((candidate) => candidate.name.getText() === "OPERATIONS");
  const rows = objectLiteral(declaration?.initializer);
  if (!rows) throw new Error("schemas/operations.ts: OPERATIONS must be an object literal of rows");
  return rows.properties.map((row) => ({ name: row.name.getText(), doc: ts.getJSDocCommentsAndTags(row).filter(ts.isJSDoc).at(-1) }));
}

/** The client's methods, one per operation: `MessagingClient` declares them through this interface and adds them from the table. */
const METHODS_FILE = path.join(ROOT, "client/operation-methods.generated.ts");

/** Every kind's TypeScript class (its folder's `resource.ts`), exported by the package root through `provider/index.ts`. */
const RESOURCES_FILE = path.join(ROOT, "provider/resources.generated.ts");

function resourceExports() {
  const lines = registryFolders()
    .filter((folder) => fs.existsSync(path.join(folder, "resource.ts")))
    .map((folder) => `export * from "${specifier(path.dirname(RESOURCES_FILE), path.join(folder, "resource"))}";`);
  return `${HEADER}
${lines.join("\n")}\n`;
}

/**
 * The generated type files and their types, in the order written: the type's name, its schema's module, and the schema (the
 * type's name unless said) and the side (`output` unless said) it is the type of. A type met inside another is printed by its
 * name, imported from its file.
 */
const TARGETS = [
  { file: "schemas/wire-types.generated.ts", types: wireTypes() },
  { file: "provider/kinds/kind-types.generated.ts", types: kindTypes() },
].map((target) => {
  const file = path.join(ROOT, target.file);
  return {
    file,
    types: target.types.map((entry) => ({ schema: entry.name, io: "output", ...entry, module: path.join(ROOT, entry.module), file })),
  };
});
const ENTRIES = TARGETS.flatMap((target) => target.types);

const HEADER = `// Generated by scripts/generate/generate-wire-types.js from the zod schemas and the registries: do not edit.
// Change a schema, a kind or an operation, then run \`npm run generate\` (test/generated/ fails while this is stale).
`;

/** A module specifier for `target` (a path without extension) from a file in `fromDir`. */
function specifier(fromDir, target) {
  const relative = path.relative(fromDir, target).split(path.sep).join("/");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

// Files on disk, parsed once for both programs.
const parsed = new Map();

/** A program of the schemas with `virtual` files (path → text) added or standing in for files on disk. */
function createProgram(virtual) {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.build.json"),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, language, ...rest) => {
    if (file in virtual) return ts.createSourceFile(file, virtual[file], language, true);
    if (!parsed.has(file)) parsed.set(file, getSourceFile(file, language, ...rest));
    return parsed.get(file);
  };
  host.fileExists = (file) => file in virtual || fileExists(file);
  host.readFile = (file) => (file in virtual ? virtual[file] : readFile(file));
  return ts.createProgram(Object.keys(virtual), config.options, host);
}

/** `import type * as <alias> from "<module>"` for each schema module, from a file at the root, and the aliases. */
function schemaImports() {
  const modules = [...new Set(ENTRIES.map((entry) => entry.module))];
  const alias = Object.fromEntries(modules.map((module, index) => [module, `s${index}`]));
  const lines = modules.map((module) => `import type * as ${alias[module]} from "${specifier(ROOT, module)}";`);
  lines.push('import type * as operations from "./schemas/operations";');
  return { alias, lines };
}

const schemaType = (entry, alias) => `z.${entry.io}<typeof ${alias[entry.module]}.${entry.schema}>`;

/** The text of a JSDoc comment, or undefined when there is none. */
function docOf(node) {
  const docs = ts.getJSDocCommentsAndTags(node).filter((doc) => doc.kind === ts.SyntaxKind.JSDoc && doc.comment);
  return docs.length === 0 ? undefined : ts.getTextOfJSDocComment(docs[docs.length - 1].comment);
}

/**
 * A wire type's documentation: its `export type` line's JSDoc in the schema module, else the
 * schema's, else the schema's `.meta({ typeDescription })` (what the plugin's schema says too).
 */
function typeDoc(checker, program, entry) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(`${entry.module}.ts`));
  const named = (name) => checker.getExportsOfModule(module).find((symbol) => symbol.name === name)?.declarations ?? [];
  const alias = named(entry.name).find(ts.isTypeAliasDeclaration);
  const schema = named(entry.schema).find(ts.isVariableDeclaration);
  return (alias && docOf(alias)) ?? (schema && (docOf(schema) ?? metaText(schema.initializer, "typeDescription")));
}

/**
 * A string literal's text, that of literals joined with `+`, or of a template whose
 * substitutions name string constants of the same file; undefined for anything else.
 */
function literalText(node) {
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [left, right] = [literalText(node.left), literalText(node.right)];
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const value = ts.isIdentifier(span.expression) ? constantText(span.expression) : undefined;
      if (value === undefined) return undefined;
      text += value + span.literal.text;
    }
    return text;
  }
  return undefined;
}

/** The text of a string constant declared in the identifier's own file (`const NAME = "…"`). */
function constantText(identifier) {
  let found;
  const visit = (node) => {
    if (found !== undefined) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === identifier.text && node.initializer)
      found = literalText(node.initializer);
    else ts.forEachChild(node, visit);
  };
  visit(identifier.getSourceFile());
  return found;
}

/** What `read` makes of the value an expression gives `key` in a `.meta({ … })` call: the outermost one it reads. */
function metaValue(expression, key, read) {
  let found;
  const visit = (node) => {
    if (found !== undefined) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "meta") {
      const [argument] = node.arguments;
      for (const member of argument && ts.isObjectLiteralExpression(argument) ? argument.properties : []) {
        if (ts.isPropertyAssignment(member) && member.name.getText() === key) found = read(member.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  if (expression) visit(expression);
  return found;
}

/** The text an expression gives `key` in a `.meta({ … })` call (the outermost one). */
const metaText = (expression, key) => metaValue(expression, key, literalText);

const initializerOf = (property) => property.declarations?.find(ts.isPropertyAssignment)?.initializer;

/** Whether a shape property's schema says `.meta({ secret: true })`. */
const metaSecret = (property) =>
  metaValue(initializerOf(property), "secret", (node) => (node.kind === ts.SyntaxKind.TrueKeyword ? true : undefined)) === true;

/** The `description` a shape property's schema gives itself in `.meta({ description })`. */
function metaDescription(property) {
  return metaText(initializerOf(property), "description");
}

function comment(text, indent) {
  if (text === undefined || text === "") return [];
  const lines = text.split("\n");
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`), `${indent} */`];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Prints checker types as TypeScript, naming the generated types (`names`: type → name) found inside another. `homes` gives
 * each named type's schema file.
 */
function createPrinter(checker, names, homes) {
  const flagged = (type, flag) => (type.flags & flag) !== 0;
  const namedUnions = [...names].filter(([type]) => type.isUnion());
  let used = new Set();

  function union(members, self) {
    let rest = [...members];
    const parts = [];
    // A wire union (WebhookFormat) inside a larger one is printed by its name.
    for (const [type, name] of namedUnions) {
      if (type !== self && type.types.every((member) => rest.includes(member))) {
        rest = rest.filter((member) => !type.types.includes(member));
        used.add(name);
        parts.push(name);
      }
    }
    const booleans = rest.filter((member) => flagged(member, ts.TypeFlags.BooleanLiteral));
    if (booleans.length === 2) rest = rest.filter((member) => !booleans.includes(member));
    const nulls = rest.filter((member) => flagged(member, ts.TypeFlags.Null));
    rest = rest.filter((member) => !nulls.includes(member));
    parts.push(...rest.map((member) => print(member, self)), ...(booleans.length === 2 ? ["boolean"] : []), ...nulls.map(() => "null"));
    return parts.join(" | ");
  }

  // Properties in the order the schema's shape declares them (zod's types list the required ones first). A shape that spreads
  // or extends another's lists those fields first, then the ones its own module (`home`) adds.
  function properties(type, home) {
    const position = (symbol) => {
      const declaration = symbol.declarations?.[0];
      const file = declaration?.getSourceFile().fileName ?? "";
      return [file === home ? 1 : 0, file, declaration?.pos ?? 0];
    };
    return checker.getPropertiesOfType(type).sort((a, b) => {
      const [ownA, fileA, posA] = position(a);
      const [ownB, fileB, posB] = position(b);
      if (ownA !== ownB) return ownA - ownB;
      return fileA === fileB ? posA - posB : fileA < fileB ? -1 : 1;
    });
  }

  const keys = (type) =>
    checker
      .getPropertiesOfType(type)
      .map((property) => property.name)
      .sort()
      .join();
  /** A named object type that `type` is, though computed apart (a schema's input side met inside another's). */
  function sameAsNamed(type) {
    if (!flagged(type, ts.TypeFlags.Object) || checker.isArrayType(type)) return undefined;
    for (const [named, name] of names) {
      if (!flagged(named, ts.TypeFlags.Object) || keys(named) !== keys(type)) continue;
      if (checker.isTypeAssignableTo(type, named) && checker.isTypeAssignableTo(named, type)) return name;
    }
    return undefined;
  }

  /** The members of an object type, one per line. */
  function members(type, self, indent) {
    const home = homes.get(self);
    const lines = checker
      .getIndexInfosOfType(type)
      .map((info) => `${indent}${info.isReadonly ? "readonly " : ""}[key: ${print(info.keyType, self)}]: ${print(info.type, self)};`);
    for (const property of properties(type, home)) {
      const optional = flagged(property, ts.SymbolFlags.Optional);
      const value = checker.getTypeOfSymbol(property);
      // `?` says "or undefined" already.
      const printed = value.isUnion()
        ? union(optional ? value.types.filter((member) => !flagged(member, ts.TypeFlags.Undefined)) : value.types, self)
        : print(value, self);
      const key = IDENTIFIER.test(property.name) ? property.name : JSON.stringify(property.name);
      const doc = ts.displayPartsToString(property.getDocumentationComment(checker)) || metaDescription(property);
      lines.push(...comment(metaSecret(property) ? `${doc ? `${doc} ` : ""}A Pulumi secret.` : doc, indent));
      lines.push(`${indent}${key}${optional ? "?" : ""}: ${printed};`);
    }
    return lines;
  }

  function print(type, self) {
    const name = names.get(type) ?? sameAsNamed(type);
    if (name !== undefined && type !== self && name !== names.get(self)) {
      used.add(name);
      return name;
    }
    if (type.isUnion()) return union(type.types, self);
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type);
      const printed = print(element, self);
      const item = element.isUnion() && !names.has(element) ? `(${printed})` : printed;
      return `${type.target.symbol.name === "ReadonlyArray" ? "readonly " : ""}${item}[]`;
    }
    if (flagged(type, ts.TypeFlags.Object)) {
      const [index, ...more] = checker.getIndexInfosOfType(type);
      if (checker.getPropertiesOfType(type).length === 0 && index !== undefined && more.length === 0 && !index.isReadonly) {
        return `Record<${print(index.keyType, self)}, ${print(index.type, self)}>`;
      }
      return `{ ${members(type, self, "").join(" ")} }`;
    }
    return checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  /** A wire type's declaration: an interface for an object type, a type alias otherwise. */
  function declaration(type, name) {
    if (flagged(type, ts.TypeFlags.Object) && !checker.isArrayType(type)) {
      return [`export interface ${name} {`, ...members(type, type, "  "), "}"];
    }
    return [`export type ${name} = ${print(type, type)};`];
  }

  /** The names printed since the last call. */
  function takeUsed() {
    const names = used;
    used = new Set();
    return names;
  }

  return { declaration, takeUsed, print: (type) => print(type, undefined) };
}

/** Each generated file's path and text. Throws when a printed type is not its schema's type. */
function generateWireTypes() {
  const { alias, lines: imports } = schemaImports();
  const probe = path.join(ROOT, "wire-types.probe.ts");
  const rows = operations();
  const program = createProgram({
    [probe]: [
      'import type { z } from "zod";',
      ...imports,
      ...ENTRIES.map((entry) => `export type ${entry.name} = ${schemaType(entry, alias)};`),
      ...rows.flatMap(({ name }) => Object.entries(operationSides(name)).map(([side, type]) => `export type ${side}_${name} = ${type};`)),
    ].join("\n"),
  });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(probe)));
  const types = ENTRIES.map((entry) => checker.getDeclaredTypeOfSymbol(exported.find((symbol) => symbol.name === entry.name)));
  const printer = createPrinter(
    checker,
    new Map(types.map((type, index) => [type, ENTRIES[index].name])),
    new Map(types.map((type, index) => [type, `${ENTRIES[index].module}.ts`])),
  );
  const files = TARGETS.map((target) => {
    const blocks = target.types.map((entry) =>
      [...comment(typeDoc(checker, program, entry), ""), ...printer.declaration(types[ENTRIES.indexOf(entry)], entry.name)].join("\n"),
    );
    const foreign = [...printer.takeUsed()].filter((name) => !target.types.some((entry) => entry.name === name));
    return { file: target.file, text: `${HEADER}${importsOf(target.file, foreign)}\n${blocks.join("\n\n")}\n` };
  });
  const typeOf = (name) => checker.getDeclaredTypeOfSymbol(exported.find((symbol) => symbol.name === name));
  // The path's parameters travel in the request object beside the body's fields: one argument, as every method takes. An empty
  // side (no body field, no parameter) is left out of it.
  for (const row of rows) {
    const sides = ["request", "params"].filter((side) => checker.getPropertiesOfType(typeOf(`${side}_${row.name}`)).length > 0);
    row.sides = sides.length === 0 ? ["request"] : sides;
  }
  // The client sits below the provider: its methods name wire types only.
  const wire = ENTRIES.filter((entry) => entry.file === TARGETS[0].file);
  const wirePrinter = createPrinter(
    checker,
    new Map(wire.map((entry) => [types[ENTRIES.indexOf(entry)], entry.name])),
    new Map(wire.map((entry) => [types[ENTRIES.indexOf(entry)], `${entry.module}.ts`])),
  );
  const methods = rows.map(({ name, doc, sides }) => {
    const request = sides.map((side) => wirePrinter.print(typeOf(`${side}_${name}`))).join(" & ");
    const docLines = doc
      ? doc
          .getText()
          .split("\n")
          .map((line) => `  ${line.trim().startsWith("*") ? " " : ""}${line.trim()}`)
      : [];
    return [
      ...docLines,
      `  ${name}(request: ${request}, options?: RequestOptions): Promise<${wirePrinter.print(typeOf(`response_${name}`))}>;`,
    ].join("\n");
  });
  const methodsText =
    `${HEADER}import type { RequestOptions } from "./request-options";\n${importsOf(METHODS_FILE, [...wirePrinter.takeUsed()])}\n` +
    "/** The service's operations as `MessagingClient`'s methods, one a row of `OPERATIONS` (schemas/operations.ts). */\n" +
    `export interface OperationMethods {\n${methods.join("\n")}\n}\n`;
  checkSameTypes([...files, { file: METHODS_FILE, text: methodsText }], imports, alias, rows);
  return [...files, { file: METHODS_FILE, text: methodsText }, { file: RESOURCES_FILE, text: resourceExports() }];
}

/** The request, path parameters and answer of the operation `name`, as schema types. */
function operationSides(name) {
  const row = `typeof operations.OPERATIONS.${name}`;
  return { request: `z.input<${row}["request"]>`, params: `z.input<${row}["params"]>`, response: `z.output<${row}["response"]>` };
}

/** `import type { … }` lines for the named types another generated file declares. */
function importsOf(file, names) {
  const from = new Map();
  for (const name of names.sort()) {
    const entry = ENTRIES.find((candidate) => candidate.name === name);
    from.set(entry.file, [...(from.get(entry.file) ?? []), name]);
  }
  return [...from]
    .map(
      ([source, listed]) => `import type { ${listed.join(", ")} } from "${specifier(path.dirname(file), source.replace(/\.ts$/, ""))}";\n`,
    )
    .join("");
}

/** Type-checks `Assert<SameType<printed, schema's>>` for every type against the files; throws naming the ones that differ. */
function checkSameTypes(files, imports, alias, rows) {
  const check = path.join(ROOT, "wire-types.check.ts");
  const generated = [...TARGETS.map((target) => target.file), METHODS_FILE].map(
    (file, index) => `import type * as g${index} from "${specifier(ROOT, file.replace(/\.ts$/, ""))}";`,
  );
  const methods = `g${TARGETS.length}.OperationMethods`;
  const header = [
    'import type { z } from "zod";',
    'import type { Assert, SameType } from "./schemas/same-type";',
    ...generated,
    ...imports,
  ];
  const assertions = ENTRIES.map(
    (entry) =>
      `export type _${entry.name} = Assert<SameType<g${TARGETS.findIndex((target) => target.file === entry.file)}.${entry.name}, ${schemaType(entry, alias)}>>;`,
  );
  // Each method takes the operation's request and path parameters, and answers its response.
  for (const { name, sides } of rows) {
    const types = operationSides(name);
    assertions.push(
      `export type _in_${name} = Assert<SameType<Parameters<${methods}["${name}"]>[0], ${sides.map((side) => types[side]).join(" & ")}>>;`,
      `export type _out_${name} = Assert<SameType<Awaited<ReturnType<${methods}["${name}"]>>, ${types.response}>>;`,
    );
  }
  const names = [...ENTRIES.map((entry) => entry.name), ...rows.flatMap(({ name }) => [`${name} (request)`, `${name} (response)`])];
  const program = createProgram({
    ...Object.fromEntries(files.map(({ file, text }) => [file, text])),
    [check]: [...header, ...assertions].join("\n"),
  });
  // The generated files and the assertions only: the rest of the program was checked by the build.
  const errors = [check, ...files.map(({ file }) => file)].flatMap((name) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(name)),
  );
  if (errors.length === 0) return;
  const file = program.getSourceFile(check);
  const lines = errors.map((error) =>
    error.file === file && error.start !== undefined
      ? names[file.getLineAndCharacterOfPosition(error.start).line - header.length]
      : `${error.file ? path.relative(ROOT, error.file.fileName) + ": " : ""}${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`,
  );
  throw new Error(
    `the printed type differs from its schema's (a case scripts/generate/generate-wire-types.js does not print right): ${[...new Set(lines)].join(", ")}`,
  );
}

module.exports = { generateWireTypes };

if (require.main === module) for (const { file, text } of generateWireTypes()) fs.writeFileSync(file, text);
