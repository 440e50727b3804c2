/**
 * A create field is written once, in `schemas/webhook-endpoint.ts`: the resource's state takes
 * its type (plain), its description, and null for an optional one left unset; the CLI's help
 * takes its description too.
 */
import { z } from "zod";
import { HELP as ENDPOINTS_HELP } from "../../cli/commands/endpoints/help";
import { CREATE_FIELDS_WITH_OWN_FLAGS, flagOf } from "../../cli/commands/endpoints/create-flags";
import { descriptionOf, recordedCreateFields, withUnsetAsNull } from "../../provider/kinds/field-meta";
import { WebhookEndpointState } from "../../provider/kinds/webhook-endpoint/schema";
import { WebhookEndpointCreate } from "../../schemas/webhook-endpoint";

const createKeys = Object.keys(WebhookEndpointCreate.shape);

it("every create field is described once, on the create schema, and the state carries that description", () => {
  for (const key of createKeys) {
    const description = descriptionOf(WebhookEndpointCreate, key);
    expect(description).toMatch(/\w/);
    expect(descriptionOf(WebhookEndpointState, key)).toBe(description);
  }
});

it("state records an optional create field as null when unset, and a defaulted one always", () => {
  expect(WebhookEndpointState.shape.description.safeParse(null).success).toBe(true);
  expect(WebhookEndpointState.shape.format.safeParse(null).success).toBe(false);
  // Plain types: a state an earlier release wrote is read even where today's create checks would refuse it.
  expect(WebhookEndpointState.shape.url.safeParse("ftp://old").success).toBe(true);
  const unset = Object.fromEntries(createKeys.map((key) => [key, null]));
  expect(unset).toHaveProperty("description");
  expect(withUnsetAsNull(WebhookEndpointCreate, { url: "https://a.example", events: ["e"], format: "basic" })).toEqual({
    ...unset,
    url: "https://a.example",
    events: ["e"],
    format: "basic",
  });
});

it("a create field of a type state has no rule for is refused where the kind is defined, not recorded wrongly", () => {
  expect(() => recordedCreateFields(z.strictObject({ when: z.date() }))).toThrow("a create field of zod type 'date'");
});

it("endpoints --help describes each create field sent as given with the create schema's own words", () => {
  const given = createKeys.filter((key) => !(CREATE_FIELDS_WITH_OWN_FLAGS as readonly string[]).includes(key));
  expect(given).not.toHaveLength(0);
  for (const key of given) {
    const line = new RegExp(`^ {2}--${flagOf(key)} TEXT\\s+(.*)$`, "m").exec(ENDPOINTS_HELP);
    expect(line?.[1]).toBe(descriptionOf(WebhookEndpointCreate, key));
  }
});
