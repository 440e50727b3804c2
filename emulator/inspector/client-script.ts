/** How often the page refreshes its live parts, in milliseconds. */
const INSPECTOR_REFRESH_MS = 1500;

/**
 * The page's inline script (no build step, nothing loaded from elsewhere). The page's state
 * is its URL (`?tab=…&event=…`): links work without the script; with it, following one
 * fetches the page and swaps in what changed instead of reloading, and the page refreshes
 * itself the same way. Only text the server escaped is inserted, and notes go in as text.
 */
export const INSPECTOR_SCRIPT = `
const note = document.getElementById("note");
// The note is one line: a long one is cut, the whole of it in its tooltip.
function say(text) {
  note.textContent = text;
  note.title = text;
}
const live = document.getElementById("live");
// What the server last sent for each region: a region is replaced only when that changed, so
// an unchanged one keeps its scroll position, its opened payloads and any text selected in it.
const sent = new Map([...document.querySelectorAll("[data-region]")].map((region) => [region.dataset.region, region.outerHTML]));
let newestLoad = 0;

// Attempts and payloads the reader opened or closed (the rest follow the page: the newest attempt open).
const opened = new Map();
document.addEventListener("click", (e) => {
  const summary = e.target.closest("details[data-key] > summary");
  if (summary) opened.set(summary.parentElement.dataset.key, !summary.parentElement.open);
});

function swap(current, fresh) {
  for (const d of fresh.querySelectorAll("details[data-key]")) if (opened.has(d.dataset.key)) d.open = opened.get(d.dataset.key);
  // A pane showing the same thing keeps its scroll position.
  const scroll = current.dataset.scroll === fresh.dataset.scroll ? current.scrollTop : 0;
  current.replaceWith(fresh);
  fresh.scrollTop = scroll;
}

async function load(url) {
  const ticket = ++newestLoad;
  let text;
  try {
    const response = await fetch(url, { headers: { accept: "text/html" }, cache: "no-store" });
    if (!response.ok) throw new Error(String(response.status));
    text = await response.text();
  } catch {
    live.dataset.state = "offline";
    live.title = "the emulator does not answer";
    return;
  }
  live.dataset.state = "live";
  live.title = "refreshes every ${INSPECTOR_REFRESH_MS / 1000} s";
  // A later load (a click) overtook this one: its page is the one to show.
  if (ticket !== newestLoad) return;
  const page = new DOMParser().parseFromString(text, "text/html");
  const regions = new Map([...document.querySelectorAll("[data-region]")].map((region) => [region.dataset.region, region]));
  for (const fresh of page.querySelectorAll("[data-region]")) {
    const name = fresh.dataset.region;
    if (sent.get(name) === fresh.outerHTML || !regions.has(name)) continue;
    sent.set(name, fresh.outerHTML);
    swap(regions.get(name), document.importNode(fresh, true));
  }
}

async function go(url) {
  history.pushState(null, "", url);
  await load(location.href);
}

async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await response.text();
  let json; try { json = JSON.parse(text); } catch {}
  return { response, json, text };
}

setInterval(() => load(location.href), ${INSPECTOR_REFRESH_MS});
window.addEventListener("popstate", () => load(location.href));

document.addEventListener("click", async (e) => {
  const link = e.target.closest("a[data-nav]");
  // A modified click opens a new tab or window as usual.
  if (link && e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey) {
    e.preventDefault();
    await go(link.href);
    return;
  }
  const retry = e.target.closest("button[data-retry]");
  if (!retry) return;
  const id = retry.dataset.retry;
  retry.disabled = true;
  say("delivering " + id + " again…");
  const { response, json, text } = await post("/_emulator/deliveries/" + encodeURIComponent(id) + "/retry", "");
  say(response.ok
    ? "delivered " + id + " again: " + (json.status === null ? "no answer" : json.status)
    : "rejected: " + ((json && json.detail) || text));
  retry.disabled = false;
  await load(location.href);
});

// j and k select the next and the previous event, as in a mail reader.
document.addEventListener("keydown", (e) => {
  const step = { j: 1, k: -1 }[e.key];
  if (!step || e.metaKey || e.ctrlKey || e.altKey || e.target.closest("input, textarea")) return;
  const rows = [...document.querySelectorAll("#events [data-event-id]")];
  const at = rows.findIndex((row) => row.getAttribute("aria-current") === "true");
  const next = rows[at + step];
  if (!next) return;
  next.scrollIntoView({ block: "nearest" });
  go(next.href);
});

document.getElementById("trigger").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = e.target;
  const body = { type: form.type.value };
  if (form.data.value.trim() !== "") {
    try { body.data = JSON.parse(form.data.value); } catch (error) { say("data is not JSON: " + error.message); return; }
  }
  say("sending…");
  const { response, json, text } = await post("/_emulator/events", JSON.stringify(body));
  if (!response.ok) {
    say("rejected: " + ((json && json.detail) || text));
    return;
  }
  const id = response.headers.get("x-emulator-event-id");
  say("event " + id + ": " + json.length + " delivery attempt(s) made");
  await go("?event=" + encodeURIComponent(id));
});
`;
