import { encodeForm } from "../../client/form";
import { WebhookEndpointCreate } from "../../schemas/webhook-endpoint";

describe("encodeForm of a webhook endpoint", () => {
  it("repeats events[] once per event, in order", () => {
    const body = encodeForm(
      WebhookEndpointCreate.parse({ url: "https://example.com/hook", events: ["payment.succeeded", "identity.verification.created"] }),
    );
    const form = new URLSearchParams(body);
    expect(form.getAll("events[]")).toEqual(["payment.succeeded", "identity.verification.created"]);
    expect(form.get("url")).toBe("https://example.com/hook");
    expect(body).toContain("events%5B%5D=payment.succeeded&events%5B%5D=identity.verification.created");
  });

  it("sends the default format 'basic' when none was given", () => {
    const form = new URLSearchParams(encodeForm(WebhookEndpointCreate.parse({ url: "https://e.com", events: ["a"] })));
    expect(form.get("format")).toBe("basic");
  });

  it("leaves description out when not given, and sends it when given (even empty)", () => {
    const without = new URLSearchParams(encodeForm(WebhookEndpointCreate.parse({ url: "https://e.com", events: ["a"] })));
    expect(without.has("description")).toBe(false);
    const withText = new URLSearchParams(
      encodeForm(WebhookEndpointCreate.parse({ url: "https://e.com", events: ["a"], description: "Orders & refunds = 100%" })),
    );
    expect(withText.get("description")).toBe("Orders & refunds = 100%");
    const empty = new URLSearchParams(encodeForm(WebhookEndpointCreate.parse({ url: "https://e.com", events: ["a"], description: "" })));
    expect(empty.get("description")).toBe("");
  });

  it("escapes reserved characters of the URL so it round-trips", () => {
    const url = "https://e.com/hook?a=1&b=two words#frag";
    const body = encodeForm(WebhookEndpointCreate.parse({ url, events: ["a"], format: "cloudEvents" }));
    expect(body).not.toContain("&b=");
    expect(new URLSearchParams(body).get("url")).toBe(url);
    expect(new URLSearchParams(body).get("format")).toBe("cloudEvents");
  });
});
