/**
 * The plugin's idempotency scope, pinned: part of every create's key on the plugin route, so a
 * changed form would give a resource whose create was interrupted a new key (sent again).
 */
import { idempotencyScopeOf } from "../../plugin/idempotency-scope";
import { UNKNOWN } from "../../provider/protocol";

const PROVIDER_ID = "0c6c3a8e-52b7-4a5e-9d0f-6f3f1b8f2a11";

test("the provider's id (the stack's identity), then <project>/<stack>/<name> for a top-level resource", () => {
  expect(idempotencyScopeOf("urn:pulumi:dev::shop::messaging:index:WebhookEndpoint::payments", PROVIDER_ID)).toBe(
    `${PROVIDER_ID}/shop/dev/payments`,
  );
});

test("under a parent, the whole URN after the provider's id", () => {
  const urn = "urn:pulumi:dev::shop::acme:index:Team$messaging:index:MessageBatch::welcome";
  expect(idempotencyScopeOf(urn, PROVIDER_ID)).toBe(`${PROVIDER_ID}/${urn}`);
});

test("without a known provider id (an engine that sends none, a preview): the place alone, as before", () => {
  const urn = "urn:pulumi:dev::shop::messaging:index:WebhookEndpoint::payments";
  expect(idempotencyScopeOf(urn)).toBe("shop/dev/payments");
  expect(idempotencyScopeOf(urn, UNKNOWN)).toBe("shop/dev/payments");
});
