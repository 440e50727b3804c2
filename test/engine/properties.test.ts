import { sameProperties } from "../../engine/properties";

test("a key holding null is the same as no key, at any depth of objects (PropertyMap.DeepEquals)", () => {
  expect(sameProperties({ url: "u", description: null }, { url: "u" })).toBe(true);
  expect(sameProperties({ adopt: { id: "we_1", note: null } }, { adopt: { id: "we_1" } })).toBe(true);
});

test("values, array lengths and array elements still count", () => {
  expect(sameProperties({ url: "u" }, { url: "v" })).toBe(false);
  expect(sameProperties({ url: "u", description: "" }, { url: "u" })).toBe(false);
  expect(sameProperties({ events: ["a", null] }, { events: ["a"] })).toBe(false);
  expect(sameProperties({ events: ["a", "b"] }, { events: ["b", "a"] })).toBe(false);
});
