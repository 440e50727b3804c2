/**
 * The inspector page (`GET /_emulator/`) in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core), at 1280×800: a list of events beside a detail pane showing each
 * attempt's request and response; endpoints and batches one tab away; ids, URLs and JSON on
 * one line each; payloads shown escaped; cross-site form posts refused. Screenshots of the
 * list and of the detail pane go to INSPECTOR_SCREENSHOTS_DIR when set (how
 * docs/inspector-*.png are made), else to a temporary folder removed afterwards.
 * Skipped, saying why, only when Chromium is absent outside CI; in CI (CI=true) a missing
 * Chromium fails the test (`.ci/run` installs it).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { startEmulator, type Emulator } from "../../emulator";
import { SIGNATURE_HEADER } from "../../schemas/http";
import { call, endpointForm, startReceiver } from "../support/emulator";

// Globals of the functions that run in the page: the project's types are Node's, without the DOM library.
declare const window: { innerWidth: number; innerHeight: number };
declare const document: { documentElement: { scrollWidth: number } };
declare function getComputedStyle(element: unknown): { lineHeight: string; whiteSpace: string };

const CHROMIUM = "/usr/bin/chromium";
const IN_CI = process.env.CI === "true";
const available = existsSync(CHROMIUM);
if (!available && !IN_CI) {
  console.warn(`inspector browser test skipped: ${CHROMIUM} is absent (apt-get install -y chromium); in CI it runs`);
}
const describeBrowser = available || IN_CI ? describe : describe.skip;

// Waits in the page are bounded generously: a loaded 2-core machine is slow, not broken.
const WAIT_MS = 90_000;
const API_KEY = "sk_test_inspector";
const VIEWPORT = { width: 1280, height: 800 };

/** A receiver answering each delivery with what `answer` makes of the event it carries. */
async function startAnsweringReceiver(
  answer: (event: { type: string }) => { status: number; contentType: string; body: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const delivered = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      // A CloudEvents envelope carries the event in `data`.
      const { status, contentType, body } = answer(delivered.specversion ? delivered.data : delivered);
      res.writeHead(status, { "content-type": contentType });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the page shows of one attempt in the detail pane. */
interface ShownAttempt {
  attempt: number;
  outcome: string | null;
  status: string | undefined;
  requestLine: string | undefined;
  signature: string | undefined;
  requestBody: string | undefined;
  responseBody: string | undefined;
}

function shownAttempts(page: Page): Promise<ShownAttempt[]> {
  return page.$$eval("#detail .attempt", (attempts) =>
    attempts.map((attempt) => {
      const text = (selector: string) => attempt.querySelector(selector)?.textContent ?? undefined;
      const headers = text('[data-field="request"] .headers') ?? "";
      return {
        attempt: Number(attempt.getAttribute("data-attempt")),
        outcome: attempt.getAttribute("data-outcome"),
        status: text('[data-field="response"] .status'),
        requestLine: text('[data-field="request"] .request-line'),
        signature: /^x-service-signature: (.*)$/im.exec(headers)?.[1],
        requestBody: text('[data-field="request"] .body'),
        responseBody: text('[data-field="response"] .body'),
      };
    }),
  );
}

/** Opens every collapsed payload and attempt, then says whether the page is still no wider than the window. */
async function fitsWidthOpened(page: Page): Promise<boolean> {
  await page.$$eval("details", (all) => all.forEach((d) => d.setAttribute("open", "")));
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const png = readFileSync(file);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describeBrowser("inspector page in headless Chromium", () => {
  let emulator: Emulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let context: BrowserContext | undefined;
  let profile: string;
  let screenshots: string;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    emulator = await startEmulator({ apiKey: API_KEY, deliveryRetrySchedule: [0.05, 0.1] });
    // 503, 503, then 200: three attempts of one event.
    receiver = await startReceiver((index) => (index < 2 ? 503 : 200));
    profile = mkdtempSync(path.join(os.tmpdir(), "inspector-chromium-"));
    screenshots = process.env.INSPECTOR_SCREENSHOTS_DIR ?? mkdtempSync(path.join(os.tmpdir(), "inspector-screenshots-"));
    mkdirSync(screenshots, { recursive: true });
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: VIEWPORT,
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
      httpCredentials: { username: API_KEY, password: "" },
    });
  }, WAIT_MS);

  afterAll(async () => {
    for (const close of closers) await close();
    await context?.close();
    await emulator?.close();
    await receiver?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (screenshots && process.env.INSPECTOR_SCREENSHOTS_DIR === undefined) rmSync(screenshots, { recursive: true, force: true });
  }, WAIT_MS);

  it(
    "at 1280×800: ten events at a glance, endpoints and batches above the fold, ids and URLs on one line, each attempt's request and response",
    async () => {
      // An emulator of its own, so the page holds exactly what this test made.
      const shown = await startEmulator({ apiKey: API_KEY, deliveryRetrySchedule: [0.05, 0.1] });
      closers.push(() => shown.close());
      // Payments fail with the receiver's own problem body; everything else is accepted.
      const answering = await startAnsweringReceiver((event) =>
        event.type === "payment.failed"
          ? { status: 500, contentType: "application/json", body: JSON.stringify({ error: "ledger unavailable", retryable: true }) }
          : { status: 200, contentType: "application/json", body: JSON.stringify({ received: true }) },
      );
      closers.push(answering.close);
      const payments = await call(shown, "/v1/webhooks/endpoints", {
        form: endpointForm({
          url: `${answering.url}/webhooks/payments`,
          "events[]": ["payment.succeeded", "payment.failed"],
          description: "Payments service (staging)",
        }),
      });
      const messages = await call(shown, "/v1/webhooks/endpoints", {
        form: endpointForm({
          url: `${answering.url}/webhooks/messages/delivery-reports`,
          format: "cloudEvents",
          "events[]": ["message.delivered", "message.failed"],
          description: "Delivery reports",
        }),
      });
      expect([payments.status, messages.status]).toEqual([200, 200]);
      for (let i = 0; i < 3; i++) {
        const batch = await call(shown, "/v1/message_batches", {
          json: {
            stream: i === 2 ? "marketing" : "transactional",
            messages: [
              { tos: [`+25471234567${i}`], body: `Your code is ${4821 + i}` },
              { tos: [`+25471234568${i}`], body: "Your parcel is on its way" },
            ],
          },
        });
        expect(batch.status).toBe(200);
      }
      const types = [
        "payment.succeeded",
        "message.delivered",
        "payment.succeeded",
        "message.failed",
        "payment.failed",
        "message.delivered",
      ];
      const eventIds: Record<string, string> = {};
      for (let i = 0; i < 14; i++) {
        const type = types[i % types.length];
        const data = type.startsWith("payment")
          ? { id: `pay_${1000 + i}`, amount: 1200 + i * 50, currency: "KES", customer: `cus_${200 + i}` }
          : { id: `msg_${5000 + i}`, to: "+254712345678", status: type === "message.failed" ? "undeliverable" : "delivered" };
        const emitted = await call(shown, "/_emulator/events", { json: { type, data } });
        expect(emitted.status).toBe(200);
        eventIds[type] = emitted.headers["x-emulator-event-id"] as string;
      }
      await shown.deliveriesSettled();

      const page = await context!.newPage();
      await page.goto(`${shown.url}/_emulator/`);

      // Measured in the page: list rows wholly inside both the window and the list's own box.
      const visibleEvents = await page
        .$$eval("#events [data-event-id]", (rows) =>
          rows.filter((row) => {
            const box = row.getBoundingClientRect();
            const list = row.closest("#events")!.getBoundingClientRect();
            return box.height > 0 && box.top >= Math.max(0, list.top) && box.bottom <= Math.min(window.innerHeight, list.bottom);
          }),
        )
        .then((rows) => rows.length);
      expect(visibleEvents).toBeGreaterThanOrEqual(10);
      const aboveTheFold = (selector: string) =>
        page.$eval(selector, (element) => {
          const box = element.getBoundingClientRect();
          return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        });
      expect(await aboveTheFold("#tab-endpoints")).toBe(true);
      expect(await aboveTheFold("#tab-batches")).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // Ids, types, URLs and times stay on one line; a value cut short has the whole of it as its tooltip.
      const oneLine = () =>
        page.$$eval(".clip", (elements) =>
          elements
            .filter((element) => element.getClientRects().length > 0)
            .map((element) => {
              const style = getComputedStyle(element);
              const lines = element.getBoundingClientRect().height / parseFloat(style.lineHeight);
              const cut = element.scrollWidth > element.clientWidth;
              return {
                text: element.textContent ?? "",
                wrapped: element.getClientRects().length > 1 || !(lines <= 1.5) || style.whiteSpace !== "nowrap",
                tooltipMissing: cut && element.getAttribute("title") !== element.textContent,
              };
            }),
        );
      const listed = await oneLine();
      expect(listed.filter((value) => value.wrapped || value.tooltipMissing)).toEqual([]);
      for (const id of Object.values(eventIds)) expect(listed.map((value) => value.text)).toContain(id);
      // JSON keeps its lines: it scrolls sideways rather than wrapping.
      expect(await page.$$eval("pre", (pres) => [...new Set(pres.map((pre) => getComputedStyle(pre).whiteSpace))])).toEqual(["pre"]);
      await page.screenshot({ path: path.join(screenshots, "inspector-events.png") });

      // Selecting the failed payment: each attempt's request (URL, signature, body) and the receiver's answer.
      const failed = eventIds["payment.failed"];
      await page.click(`#events [data-event-id="${failed}"]`);
      await page.waitForSelector(`#detail[data-event-id="${failed}"]`, { timeout: WAIT_MS });
      expect(new URL(page.url()).searchParams.get("event")).toBe(failed);
      const attempts = await shownAttempts(page);
      expect(attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
        [3, "500", "failed"],
        [2, "500", "retry_scheduled"],
        [1, "500", "retry_scheduled"],
      ]);
      for (const a of attempts) {
        expect(a.requestLine).toBe(`POST ${answering.url}/webhooks/payments`);
        expect(a.signature).toMatch(/^t=\d+,sha256=[0-9a-f]{64}$/);
        expect(JSON.parse(a.requestBody ?? "")).toMatchObject({ id: failed, type: "payment.failed" });
        expect(JSON.parse(a.responseBody ?? "")).toEqual({ error: "ledger unavailable", retryable: true });
      }
      // The newest attempt is open, its request and response in view.
      expect(await aboveTheFold('#detail .attempt[open] [data-field="request"] .request-line')).toBe(true);
      expect(await aboveTheFold('#detail .attempt[open] [data-field="response"] .status')).toBe(true);
      expect((await oneLine()).filter((value) => value.wrapped || value.tooltipMissing)).toEqual([]);
      await page.screenshot({ path: path.join(screenshots, "inspector-detail.png") });
      // j selects the next (older) event, as in a mail reader.
      const older = await page.getAttribute(`#events [data-event-id="${failed}"] + [data-event-id]`, "data-event-id");
      await page.keyboard.press("j");
      await page.waitForSelector(`#detail[data-event-id="${older}"]`, { timeout: WAIT_MS });

      // Endpoints and batches: one click away, shown within the window.
      await page.click("#tab-endpoints");
      await page.waitForSelector(`#endpoints [data-endpoint-id="${messages.json.id}"]`, { timeout: WAIT_MS });
      expect(await aboveTheFold(`#endpoints [data-endpoint-id="${messages.json.id}"]`)).toBe(true);
      expect((await oneLine()).filter((value) => value.wrapped || value.tooltipMissing)).toEqual([]);
      await page.click("#tab-batches");
      await page.waitForSelector("#batches [data-batch-id]", { timeout: WAIT_MS });
      expect(await page.locator("#batches [data-batch-id]").count()).toBe(3);
      expect(await aboveTheFold("#batches [data-batch-id]:last-child")).toBe(true);
      expect(await aboveTheFold("#batch-totals")).toBe(true);

      for (const name of ["inspector-events.png", "inspector-detail.png"]) {
        expect(pngSize(path.join(screenshots, name))).toEqual(VIEWPORT);
      }
      await page.close();
    },
    WAIT_MS * 2,
  );

  it(
    "triggers an event from the page; the three signed attempts (503, 503, 200) of one event id appear with what the receiver got",
    async () => {
      const created = await call(emulator, "/v1/webhooks/endpoints", {
        form: endpointForm({ url: `${receiver.url}/payments`, "events[]": ["payment.succeeded"] }),
      });
      expect(created.status).toBe(200);

      const page = await context!.newPage();
      const response = await page.goto(`${emulator.url}/_emulator/`);
      expect(response?.status()).toBe(200);
      // The page's own script and style run by their hashes: nothing inline runs otherwise.
      expect(response?.headers()["content-security-policy"]).not.toContain("unsafe-inline");
      await page.click("#tab-endpoints");
      await page.waitForSelector(`#endpoints [data-endpoint-id="${created.json.id}"]`, { timeout: WAIT_MS });
      await page.click("#tab-events");
      await page.waitForSelector('#tab-events[aria-current="page"]', { timeout: WAIT_MS });

      await page.fill("#trigger input[name=type]", "payment.succeeded");
      await page.fill("#trigger [name=data]", '{"id": "pay_from_the_page"}');
      await page.click("#trigger button[type=submit]");
      await page.waitForSelector('#detail .attempt[data-outcome="delivered"]', { timeout: WAIT_MS });

      const eventIds = receiver.received.map((r) => JSON.parse(r.body).id);
      expect(eventIds).toHaveLength(3);
      expect(new Set(eventIds).size).toBe(1);
      expect(await page.getAttribute("#detail", "data-event-id")).toBe(eventIds[0]);
      expect(new Set(await page.$$eval("#detail [data-delivery-id]", (all) => all.map((d) => d.getAttribute("data-delivery-id"))))).toEqual(
        new Set([emulator.deliveries()[0].id]),
      );
      const attempts = await shownAttempts(page);
      // Newest first; each shows the signature the receiver got and the body it answered.
      expect(attempts.map((a) => [a.attempt, a.status, a.outcome, a.responseBody])).toEqual([
        [3, "200", "delivered", "ok"],
        [2, "503", "retry_scheduled", "ok"],
        [1, "503", "retry_scheduled", "ok"],
      ]);
      expect(attempts.map((a) => a.signature)).toEqual(receiver.received.map((r) => r.headers[SIGNATURE_HEADER]).reverse());
      expect(attempts.map((a) => a.requestBody)).toEqual(
        receiver.received.map((r) => JSON.stringify(JSON.parse(r.body), null, 2)).reverse(),
      );
      expect(JSON.parse(receiver.received[2].body).data.object).toEqual({ id: "pay_from_the_page" });
      expect(await page.locator("#events").textContent()).toContain(eventIds[0]);
      expect(await page.textContent("#note")).toContain(eventIds[0]);

      // Delivered again from the page: a fourth attempt, now the one open; an attempt the
      // reader opened stays open as the pane is redrawn.
      await page.click('#detail .attempt[data-attempt="1"] summary');
      await page.click("#detail button[data-retry]");
      await page.waitForSelector('#detail .attempt[data-attempt="4"]', { timeout: WAIT_MS });
      const open = await page.$$eval("#detail .attempt", (all) => all.map((a) => [a.getAttribute("data-attempt"), a.hasAttribute("open")]));
      expect(open).toEqual([
        ["4", true],
        ["3", false],
        ["2", false],
        ["1", true],
      ]);
      expect((await shownAttempts(page))[0]).toMatchObject({ status: "200", outcome: "delivered" });
      expect(await page.textContent("#note")).toContain(`delivered ${emulator.deliveries()[0].id} again: 200`);
      // The page refreshes itself: a newer event joins the list, the selected one stays shown.
      const newer = await call(emulator, "/_emulator/events", { json: { type: "payment.succeeded" } });
      await page.waitForSelector(`#events [data-event-id="${newer.headers["x-emulator-event-id"]}"]`, { timeout: WAIT_MS });
      expect(await page.getAttribute("#detail", "data-event-id")).toBe(eventIds[0]);
      await page.close();
    },
    WAIT_MS * 2,
  );

  it(
    "shows payloads (message bodies, event payloads, delivery request and response bodies, descriptions) escaped, within the window's width",
    async () => {
      const hostile = `<b id="injected">bold</b><img src=x onerror="document.title='pwned'">`;
      const long = "x".repeat(3000); // one unbreakable word: must scroll, not widen the page
      // A receiver answering markup (declared as HTML) and a long word: shown as text.
      const answer = `answer ${hostile} ${long}`;
      const answering = await startAnsweringReceiver(() => ({ status: 400, contentType: "text/html", body: answer }));
      closers.push(answering.close);
      const created = await call(emulator, "/v1/webhooks/endpoints", {
        form: endpointForm({ url: `${answering.url}/wide/${long}`, "events[]": ["payment.succeeded"], description: `desc ${hostile}` }),
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
      await page.goto(`${emulator.url}/_emulator/?event=${eventId}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await fitsWidthOpened(page)).toBe(true);
      expect(await page.locator("#detail > .payload pre").textContent()).toContain(`"note": ${JSON.stringify(`event ${hostile}`)}`);
      const toAnswering = emitted.json.find((attempt: { endpointId: string }) => attempt.endpointId === created.json.id);
      const delivery = page.locator(`#detail [data-delivery-id="${toAnswering.id}"]`);
      expect(await delivery.locator('[data-field="request"] .body').first().textContent()).toContain(`"id": "${eventId}"`);
      expect(await delivery.locator('[data-field="response"] .body').allTextContents()).toContain(answer);

      await page.click("#tab-endpoints");
      await page.waitForSelector(`#endpoints [data-endpoint-id="${created.json.id}"]`, { timeout: WAIT_MS });
      expect(await fitsWidthOpened(page)).toBe(true);
      expect(await page.locator(`#endpoints [data-endpoint-id="${created.json.id}"] [data-field="description"]`).textContent()).toBe(
        `desc ${hostile}`,
      );

      await page.click("#tab-batches");
      await page.waitForSelector(`#batches [data-batch-id="${batch.json.id}"]`, { timeout: WAIT_MS });
      expect(await fitsWidthOpened(page)).toBe(true);
      expect(await page.locator(`#batches [data-batch-id="${batch.json.id}"] pre`).textContent()).toContain(
        `"body": ${JSON.stringify(`message ${hostile}`).slice(0, -1)}`,
      );
      expect(await page.locator("#injected").count()).toBe(0);
      expect(await page.locator("main img").count()).toBe(0);
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
      expect(await page.locator("#detail").textContent()).toContain(hostile);
      expect(await page.locator("main img").count()).toBe(0);
      // The page's own address is a request too.
      await page.goto(`${emulator.url}/_emulator/?event=${encodeURIComponent(hostile)}&tab=${encodeURIComponent(hostile)}`);
      expect(await page.locator("#detail").textContent()).toContain(`Event ${hostile} is not kept`);
      expect(await page.locator("main img").count()).toBe(0);
      expect(await page.title()).toBe("messaging emulator");
      await page.close();
    },
    WAIT_MS * 2,
  );
});
