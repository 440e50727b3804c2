/**
 * The generated code is what `scripts/generate/generate-wire-types.js` writes from the zod schemas and the registries as they are
 * now: the wire types, each kind's inputs and state, the client's methods (one per operation) and the resource classes the package
 * exports (one per kind). A schema, a kind or an operation changed without `npm run generate` fails here. (The script itself refuses
 * to write a type that is not its schema's.)
 */
import * as fs from "node:fs";
import * as path from "node:path";

const { generateWireTypes } = require("../../scripts/generate/generate-wire-types") as {
  generateWireTypes(): Array<{ file: string; text: string }>;
};

const generated = generateWireTypes();

it("writes the wire types, the resource kinds' types, the client's methods and the resource classes' exports", () => {
  expect(generated.map(({ file }) => path.relative(path.resolve(__dirname, "../.."), file))).toEqual([
    "schemas/wire-types.generated.ts",
    "provider/kinds/kind-types.generated.ts",
    "client/operation-methods.generated.ts",
    "provider/resources.generated.ts",
  ]);
});

it.each(generated.map(({ file, text }) => [path.basename(file), file, text]))(
  "%s is up to date with the schemas and registries (else: npm run generate)",
  (_name, file, text) => {
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  },
);
