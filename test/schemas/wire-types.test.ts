/**
 * The generated types (`schemas/wire-types.generated.ts`, `provider/kinds/kind-types.generated.ts`) are what
 * `scripts/generate/generate-wire-types.js` writes from the zod schemas as they are now: a schema changed without
 * `npm run generate:wire-types` fails here. (The script itself refuses to write a type that is not its schema's.)
 */
import * as fs from "node:fs";
import * as path from "node:path";

const { generateWireTypes } = require("../../scripts/generate/generate-wire-types") as {
  generateWireTypes(): Array<{ file: string; text: string }>;
};

const generated = generateWireTypes();

it("writes the wire types and the resource kinds' types", () => {
  expect(generated.map(({ file }) => path.relative(path.resolve(__dirname, "../.."), file))).toEqual([
    "schemas/wire-types.generated.ts",
    "provider/kinds/kind-types.generated.ts",
  ]);
});

it.each(generated.map(({ file, text }) => [path.basename(file), file, text]))(
  "%s is up to date with the schemas (else: npm run generate:wire-types)",
  (_name, file, text) => {
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  },
);
