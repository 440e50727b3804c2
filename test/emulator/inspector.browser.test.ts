/**
 * The inspector page (`GET /_emulator/`) in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core): trigger an event from the page and watch its delivery attempts
 * appear. Skipped, saying why, only when Chromium is absent outside CI; in CI (CI=true) a
 * missing Chromium fails the test (`.ci/run` installs it).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { startEmulator, type Emulator } from "../../emulator";
import { call, endpointForm, startReceiver } from "./helpers";

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
          outcome: tr.getAttribute("data-outcome"),
        })),
      );
      // Newest first.
      expect(rows.map((r) => [r.attempt, r.status, r.outcome])).toEqual([
        [3, "200", "delivered"],
        [2, "503", "retry_scheduled"],
        [1, "503", "retry_scheduled"],
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
