/**
 * Writes each resource's field tables into its page of docs/ (between the markers
 * `<!-- fields: <Resource> -->` and `<!-- /fields -->`), from the package schema the plugin
 * serves, so a field's name, type, secrecy and description are written once, in its zod
 * schema. `npm run generate` runs it; with `--check` it writes nothing and fails naming a stale
 * page (test/generated/docs-tables.test.ts runs that in-process). `--root DIR` reads the pages under DIR.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { format } from "prettier/standalone";
import * as markdown from "prettier/plugins/markdown";
import { packageSchema, REQUIRED_NOTE, SECRET_NOTE, type PackageSchema, type PropertySpec, type TypeSpec } from "../../plugin/schema";
import { REPO_ROOT } from "../repo-root";

/** The pages of docs/ under `root` that hold a resource's field tables (a `<!-- fields: <Resource> -->` marker): a new kind's page needs no edit here. */
export function fieldPages(root: string): string[] {
  return fs
    .readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md") && fs.readFileSync(path.join(root, "docs", name), "utf8").includes("<!-- fields: "))
    .sort()
    .map((name) => `docs/${name}`);
}

const TOKEN_PREFIX = "messaging:index:";
const FIELDS = /(<!-- fields: (\w+) -->\n)[\s\S]*?(<!-- \/fields -->)/g;

function typeName(type: TypeSpec, schema: PackageSchema): string {
  if (type.$ref === "pulumi.json#/Asset") return "asset";
  if (type.$ref === "pulumi.json#/Any") return "any";
  if (type.$ref?.startsWith("#/types/")) {
    const token = type.$ref.slice("#/types/".length);
    const named = schema.types[token];
    if (named && "enum" in named) return named.enum.map(({ value }) => `\`${value}\``).join(" \\| ");
    return token.slice(TOKEN_PREFIX.length);
  }
  if (type.type === "array" && type.items) return `${typeName(type.items, schema)}[]`;
  if (type.type === "object" && type.additionalProperties) return `map of ${typeName(type.additionalProperties, schema)}`;
  return type.type ?? "any";
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

// The table's marks column says what the SDKs' notes say.
const withoutNotes = (text: string): string => [REQUIRED_NOTE, SECRET_NOTE].reduce((rest, note) => rest.replace(`${note} `, ""), text);

function table(heading: string, properties: Record<string, PropertySpec>, required: readonly string[], schema: PackageSchema): string {
  const rows = Object.entries(properties).map(([name, property]) => {
    const marks = [required.includes(name) ? "required" : "", property.secret ? "secret" : ""].filter(Boolean).join(", ");
    return `| \`${name}\` | ${typeName(property, schema)} | ${marks} | ${cell(withoutNotes(property.description ?? ""))} |`;
  });
  return [`| ${heading} | type | | description |`, "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The object types `properties` refer to, nested ones included, in the order met. */
function objectTypesOf(properties: Record<string, PropertySpec>, schema: PackageSchema, found: string[] = []): string[] {
  const visit = (type: TypeSpec | undefined): void => {
    if (!type) return;
    const token = type.$ref?.startsWith("#/types/") ? type.$ref.slice("#/types/".length) : undefined;
    const named = token ? schema.types[token] : undefined;
    if (token && named && named.type === "object" && !found.includes(token)) {
      found.push(token);
      objectTypesOf(named.properties, schema, found);
    }
    visit(type.items);
    visit(type.additionalProperties);
  };
  Object.values(properties).forEach(visit);
  return found;
}

/** The field tables of `resource`: its inputs, the fields of each object type they hold, then its outputs. */
export function fieldTables(resource: string, schema: PackageSchema = packageSchema("0.0.0")): string {
  const spec = schema.resources[`${TOKEN_PREFIX}${resource}`];
  if (!spec) throw new Error(`no resource ${resource} in the package schema`);
  const tables = [table("input", spec.inputProperties, spec.requiredInputs, schema)];
  for (const token of objectTypesOf(spec.inputProperties, schema)) {
    const type = schema.types[token];
    if (type.type !== "object") continue;
    tables.push(`\`${token.slice(TOKEN_PREFIX.length)}\`: ${type.description ?? ""}`);
    tables.push(table("field", type.properties, type.required ?? [], schema));
  }
  tables.push(table("output", spec.properties, spec.required, schema));
  return tables.join("\n\n") + "\n";
}

// The tables alone are formatted, as `prettier --write` lays out a top-level table of the page, with the repository's width:
// Prettier's standalone build loads anywhere (the unit tier's module sandbox included), its CLI's config reader does not.
const PRINT_WIDTH = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, ".prettierrc.json"), "utf8")) as { printWidth: number }).printWidth;

/** `text` (a page of docs/) with each field table written anew. */
export async function withFieldTables(text: string): Promise<string> {
  const tables = [...text.matchAll(FIELDS)].map(([, , resource]) =>
    format(fieldTables(resource), { parser: "markdown", plugins: [markdown], printWidth: PRINT_WIDTH }),
  );
  const written = await Promise.all(tables);
  let index = 0;
  return text.replace(FIELDS, (_all, open: string, _resource: string, close: string) => `${open}\n${written[index++]}\n${close}`);
}

/** Writes (or, with `check`, compares) the field tables of every page under `root`; says what it did through `io`. */
export async function writeFieldTables(
  root: string,
  check: boolean,
  io: { log(line: string): void; error(line: string): void } = console,
): Promise<number> {
  let stale = 0;
  for (const page of fieldPages(root)) {
    const file = path.join(root, page);
    const before = fs.readFileSync(file, "utf8");
    const after = await withFieldTables(before);
    if (after === before) {
      io.log(`${page}: up to date`);
    } else if (check) {
      stale++;
      io.error(`${page}: stale field tables; run \`npm run generate\``);
    } else {
      fs.writeFileSync(file, after);
      io.log(`${page}: written`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  writeFieldTables(args.includes("--root") ? args[args.indexOf("--root") + 1] : REPO_ROOT, args.includes("--check")).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
