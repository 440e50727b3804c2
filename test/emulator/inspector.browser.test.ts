/**
 * The inspector page (`GET /_emulator/`) in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core): trigger an event from the page and watch its delivery attempts
 * appear with what the receiver answered; payloads shown escaped, the page fitting 1280×900;
 * cross-site form posts refused. Skipped, saying why, only when Chromium is absent outside CI;
 * in CI (CI=true) a missing Chromium fails the test (`.ci/run` installs it).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { startEmulator, type Emulator } from "../../emulator";
import { call, endpointForm, startReceiver } from "../support/emulator";

const CHROMIUM = "/usr/bin/chromium";
const IN_CI = process.env.CI === "true";
const available = existsSync(CHROMIUM);
if (!available && !IN_CI) {
  console.warn(`inspector browser test skipped: ${CHROMIUM} is absent (apt-get install -y chromium); in CI it runs`);
}
const describeBrowser = available || IN_CI ? describe : describe.skip;

// Waits in the page are bounded generously: a loaded 2-core machine is slow, not broken.
const WAIT_MS = 90_000;

describeBrowser("inspector page in headless Chromium", () => {
  let emulator: Emulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let context: BrowserContext | undefined;
  let profile: string;
  let closeAnswering: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: "sk_test_inspector", deliveryRetrySchedule: [0.05, 0.1] });
    // 503, 503, then 200: three attempts of one event.
    receiver = await startReceiver((index) => (index < 2 ? 503 : 200));
    profile = mkdtempSync(path.join(os.tmpdir(), "inspector-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      httpCredentials: { username: "sk_test_inspector", password: "" },
    });
  }, WAIT_MS);

  afterAll(async () => {
    await closeAnswering?.();
    await context?.close();
    await emulator?.close();
    await receiver?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  }, WAIT_MS);

  it(
    "triggers an event from the page; the three signed attempts (503, 503, 200) of one event id appear",
    async () => {
      const created = await call(emulator, "/v1/webhooks/endpoints", {
        form: endpointForm({ url: `${receiver.url}/payments`, "events[]": ["payment.succeeded"] }),
      });
      expect(created.status).toBe(200);

      const page = await context!.newPage();
      const response = await page.goto(`${emulator.url}/_emulator/`);
      expect(response?.status()).toBe(200);
      expect(await page.locator("#endpoints").textContent()).toContain(created.json.id);

      await page.fill("#trigger input[name=type]", "payment.succeeded");
      await page.fill("#trigger textarea[name=data]", '{"id": "pay_from_the_page"}');
      await page.click("#trigger button[type=submit]");
      await page.waitForSelector('#deliveries tr[data-outcome="delivered"]', { timeout: WAIT_MS });

      const rows = await page.$$eval("#deliveries tbody tr", (trs) =>
        trs.map((tr) => ({
          delivery: tr.getAttribute("data-delivery-id"),
          event: tr.getAttribute("data-event-id"),
          attempt: Number(tr.getAttribute("data-attempt")),
          status: tr.querySelector('[data-field="status"]')?.textContent,
          response: tr.querySelector('[data-field="response"] pre')?.textContent,
          outcome: tr.getAttribute("data-outcome"),
        })),
      );
      // Newest first.
      expect(rows.map((r) => [r.attempt, r.status, r.outcome, r.response])).toEqual([
        [3, "200", "delivered", "ok"],
        [2, "503", "retry_scheduled", "ok"],
        [1, "503", "retry_scheduled", "ok"],
      ]);
      expect(new Set(rows.map((r) => r.delivery)).size).toBe(1);
      const eventIds = receiver.received.map((r) => JSON.parse(r.body).id);
      expect(eventIds).toHaveLength(3);
      expect(new Set([...eventIds, ...rows.map((r) => r.event)])).toEqual(new Set([eventIds[0]]));
      expect(JSON.parse(receiver.received[2].body).data.object).toEqual({ id: "pay_from_the_page" });
      expect(await page.locator("#events").textContent()).toContain(eventIds[0]);
      expect(await page.textContent("#note")).toContain(eventIds[0]);
      await page.close();
    },
    WAIT_MS * 2,
  );

  it(
    "shows payloads (message bodies, event payloads, delivery request and response bodies, descriptions) escaped, and fits 1280×900",
    async () => {
      const hostile = `<b id="injected">bold</b><img src=x onerror="document.title='pwned'">`;
      const long = "x".repeat(3000); // one unbreakable word: must wrap, not widen the page
      // A receiver answering markup (declared as HTML) and a long word: shown as text, wrapped.
      const answer = `answer ${hostile} ${long}`;
      const answering = http.createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          res.writeHead(400, { "content-type": "text/html" });
          res.end(answer);
        });
      });
      await new Promise<void>((resolve) => answering.listen(0, "127.0.0.1", resolve));
      closeAnswering = () => {
        answering.closeAllConnections();
        return new Promise<void>((resolve) => answering.close(() => resolve()));
      };
      const answeringUrl = `http://127.0.0.1:${(answering.address() as AddressInfo).port}`;
      const created = await call(emulator, "/v1/webhooks/endpoints", {
        form: endpointForm({ url: `${answeringUrl}/wide/${long}`, "events[]": ["payment.succeeded"], description: `desc ${hostile}` }),
      });
      expect(created.status).toBe(200);
      const batch = await call(emulator, "/v1/message_batches", {
        json: { stream: "transactional", messages: [{ tos: ["+254712345678"], body: `message ${hostile} ${long}` }] },
      });
      expect(batch.status).toBe(200);
      const emitted = await call(emulator, "/_emulator/events", {
        json: { type: "payment.succeeded", data: { note: `event ${hostile}`, long } },
      });
      expect(emitted.status).toBe(200);
      const eventId = emitted.headers["x-emulator-event-id"] as string;

      const page = await context!.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${emulator.url}/_emulator/`);
      const fits = () =>
        page.evaluate("({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })") as Promise<{
          scrollWidth: number;
          innerWidth: number;
        }>;
      const collapsed = await fits();
      expect(collapsed.scrollWidth).toBeLessThanOrEqual(collapsed.innerWidth);

      // Expanded, every payload is shown as text.
      await page.$$eval("details", (all) => all.forEach((d) => d.setAttribute("open", "")));
      const expanded = await fits();
      expect(expanded.scrollWidth).toBeLessThanOrEqual(expanded.innerWidth);
      expect(await page.locator(`#endpoints td[data-field="description"]`).last().textContent()).toBe(`desc ${hostile}`);
      expect(await page.locator(`#batches tr[data-batch-id="${batch.json.id}"] pre`).textContent()).toContain(
        `"body": ${JSON.stringify(`message ${hostile}`).slice(0, -1)}`,
      );
      expect(await page.locator(`#events tr[data-event-id="${eventId}"] pre`).textContent()).toContain(
        `"note": ${JSON.stringify(`event ${hostile}`)}`,
      );
      expect(await page.locator(`#deliveries tr[data-event-id="${eventId}"] td[data-field="request"] pre`).first().textContent()).toContain(
        `"id": "${eventId}"`,
      );
      const response = page.locator(`#deliveries tr[data-event-id="${eventId}"] td[data-field="response"] pre`);
      expect(await response.count()).toBeGreaterThan(0);
      expect(await response.allTextContents()).toContain(answer);
      expect(await page.locator("#injected").count()).toBe(0);
      expect(await page.locator("#live img").count()).toBe(0);
      expect(await page.title()).toBe("messaging emulator");
      await page.close();
    },
    WAIT_MS * 2,
  );

  it(
    "refuses a cross-site form POST to a state-changing route, even with the key cached (415, nothing redelivered)",
    async () => {
      const attempts = emulator.deliveries();
      expect(attempts.length).toBeGreaterThan(0);
      const target = `${emulator.url}/_emulator/deliveries/${attempts[0].id}/retry`;
      // Another origin (another port) serving a page that submits a form to the emulator.
      const attacker = http.createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(
          `<form id="f" method="POST" action="${target}"><input name="x" value="1"></form><script>document.getElementById("f").submit()</script>`,
        );
      });
      await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
      try {
        const page = await context!.newPage();
        const answer = page.waitForResponse((response) => response.url() === target);
        await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
        expect((await answer).status()).toBe(415);
        await page.close();
        expect(emulator.deliveries()).toHaveLength(attempts.length);
      } finally {
        attacker.closeAllConnections();
        await new Promise<void>((resolve) => attacker.close(() => resolve()));
      }
    },
    WAIT_MS * 2,
  );

  it(
    "shows what requests carried as text, never as markup",
    async () => {
      const hostile = `<img src=x onerror="document.title='pwned'">`;
      await call(emulator, "/v1/webhooks/endpoints", { form: endpointForm({ url: `${receiver.url}/x`, "events[]": [hostile] }) });
      await call(emulator, "/_emulator/events", { json: { type: hostile } });
      const page = await context!.newPage();
      await page.goto(`${emulator.url}/_emulator/`);
      expect(await page.locator("#events").textContent()).toContain(hostile);
      expect(await page.locator("#events img").count()).toBe(0);
      expect(await page.title()).toBe("messaging emulator");
      await page.close();
    },
    WAIT_MS * 2,
  );
});
