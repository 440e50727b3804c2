/**
 * The idempotency scope, pinned: part of every create's key on both routes, so a changed form gives a resource whose create
 * was interrupted a new key (sent again). The TypeScript class and the plugin must derive the same scope for the same place.
 */
import { idempotencyScope, idempotencyScopeOfUrn, typeChainOfUrn } from "../../provider/idempotency-scope";

const IDENTITY = "0c6c3a8e-52b7-4a5e-9d0f-6f3f1b8f2a11";

test("s2: the stack's identity, the project, the parents' types and the name; never the stack's name", () => {
  expect(idempotencyScopeOfUrn("urn:pulumi:dev::shop::messaging:index:WebhookEndpoint::payments", IDENTITY)).toBe(
    `s2/${IDENTITY}/shop//payments`,
  );
  const renamed = idempotencyScopeOfUrn("urn:pulumi:production::shop::messaging:index:WebhookEndpoint::payments", IDENTITY);
  expect(renamed).toBe(`s2/${IDENTITY}/shop//payments`);
});

test("under parents, their type chain; the resource's own type is left out (it differs between the routes)", () => {
  const urn = "urn:pulumi:dev::shop::acme:index:Region$acme:index:Team$messaging:index:MessageBatch::welcome";
  expect(idempotencyScopeOfUrn(urn, IDENTITY)).toBe(`s2/${IDENTITY}/shop/acme:index:Region$acme:index:Team/welcome`);
});

test("the TypeScript class's scope, from its parent's URN, equals the plugin's, from its own", () => {
  const parentUrn = "urn:pulumi:dev::shop::acme:index:Region$acme:index:Team::team-a";
  const fromClass = idempotencyScope(IDENTITY, "shop", typeChainOfUrn(parentUrn), "welcome");
  const pluginUrn = "urn:pulumi:dev::shop::acme:index:Region$acme:index:Team$messaging:index:MessageBatch::welcome";
  expect(fromClass).toBe(idempotencyScopeOfUrn(pluginUrn, IDENTITY));
  // A parent that is the stack itself is no parent: top-level resources' URNs name no stack type.
  expect(typeChainOfUrn("urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev")).toBe("");
});

test("a name holding '::' is kept whole; without a known identity the place alone", () => {
  expect(idempotencyScopeOfUrn("urn:pulumi:dev::shop::messaging:index:WebhookEndpoint::a::b", undefined)).toBe("s2//shop//a::b");
});
