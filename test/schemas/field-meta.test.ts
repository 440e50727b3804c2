/**
 * Every fact of a wire field is in its zod `.meta()`: the emulator's limits, the form encoding and `messaging endpoints list`
 * read it there. A field of a form operation that does not say what the emulator may store of it, or whether a listing shows it,
 * fails here: a new create field cannot be forgotten by the emulator or the CLI.
 */
import { z } from "zod";
import { encodeForm } from "../../client/form";
import { OPERATIONS } from "../../schemas/operations";
import { listedFields, wireMetaOf } from "../../schemas/field-meta";
import { formFieldsOf } from "../../schemas/form-fields";

const FORM_OPERATIONS = Object.entries(OPERATIONS).filter(([, operation]) => operation.encoding === "form");

// The field under `.optional()` and `.default()`.
const inner = (field: z.core.$ZodType): z.core.$ZodType => {
  const def = field._zod.def as { type: string; innerType?: z.core.$ZodType };
  return def.type === "optional" || def.type === "default" ? inner(def.innerType!) : field;
};

test("the service has a form operation to hold to this", () => {
  expect(FORM_OPERATIONS.map(([name]) => name)).toEqual(["createWebhookEndpoint"]);
});

test.each(FORM_OPERATIONS)("every field of %s says whether a listing shows it and what the emulator stores of it", (_name, operation) => {
  const request = operation.request as z.ZodObject;
  for (const [key, field] of Object.entries(request.shape)) {
    const meta = wireMetaOf(field) ?? {};
    const value = inner(field)._zod.def as { type: string; element?: z.core.$ZodType };
    const text = value.type === "array" ? (inner(value.element!)._zod.def.type as string) : value.type;
    expect({ key, listed: typeof meta.listed }).toEqual({ key, listed: "boolean" });
    // Free text (not an enum) has a size the emulator stores at most; a list, a count.
    if (text === "string") expect({ key, maxBytes: meta.maxBytes }).toEqual({ key, maxBytes: expect.any(Number) });
    if (value.type === "array") expect({ key, maxItems: meta.maxItems }).toEqual({ key, maxItems: expect.any(Number) });
  }
});

describe("a field's wire name (`.meta({ wireName })`)", () => {
  const Create = z.strictObject({
    ownerTeam: z.string().meta({ wireName: "owner_team", maxBytes: 64, listed: true }),
    labels: z.array(z.string()).optional().meta({ wireName: "label", maxBytes: 16, maxItems: 4, listed: false }),
    note: z.string().optional(),
  });

  test("is the form field it is sent under, repeated with [] for a list", () => {
    expect(formFieldsOf(Create)).toEqual([
      { key: "ownerTeam", name: "owner_team", repeated: false, maxBytes: 64, maxItems: undefined },
      { key: "labels", name: "label[]", repeated: true, maxBytes: 16, maxItems: 4 },
      { key: "note", name: "note", repeated: false, maxBytes: undefined, maxItems: undefined },
    ]);
    const form = new URLSearchParams(encodeForm({ ownerTeam: "payments", labels: ["a", "b"], note: "n" }, formFieldsOf(Create)));
    expect([...form]).toEqual([
      ["owner_team", "payments"],
      ["label[]", "a"],
      ["label[]", "b"],
      ["note", "n"],
    ]);
  });

  test("is the key a listing reads from the service's object", () => {
    expect(listedFields(Create)).toEqual([{ key: "ownerTeam", wireName: "owner_team" }]);
  });
});
