/**
 * `schemas/wire-types.generated.ts` is what `scripts/generate/generate-wire-types.js` writes from the zod
 * schemas as they are now: a schema changed without `npm run generate:wire-types` fails here.
 * (The script itself refuses to write a type that is not its schema's.)
 */
import * as fs from "node:fs";

const { generateWireTypes, WIRE_TYPES_FILE } = require("../../scripts/generate/generate-wire-types") as {
  generateWireTypes(): string;
  WIRE_TYPES_FILE: string;
};

it("schemas/wire-types.generated.ts is up to date with the schemas (else: npm run generate:wire-types)", () => {
  expect(fs.readFileSync(WIRE_TYPES_FILE, "utf8")).toBe(generateWireTypes());
});
