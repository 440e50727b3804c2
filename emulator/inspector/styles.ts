/**
 * The page's style sheet. The page fills the window: a header with the tabs, the trigger
 * form, then the events list beside the detail pane, each scrolling on its own. Ids, URLs
 * and types stay on one line (`.clip`: cut with an ellipsis, the whole value in the tooltip);
 * JSON keeps its lines and scrolls sideways (`pre`). Nothing widens the page.
 */
export const INSPECTOR_STYLE = `
:root {
  --text: #1d2433; --muted: #667085; --faint: #98a2b3; --line: #e4e7ec; --soft-line: #f0f2f5;
  --page: #f5f6f8; --panel: #fff; --code: #f8f9fb; --accent: #4f46e5; --accent-soft: #eef0fe;
  --ok: #067647; --ok-bg: #e6f5ec; --warn: #a04b06; --warn-bg: #fdf1e2; --bad: #b42318; --bad-bg: #fdecea;
  --idle: #475467; --idle-bg: #eef0f3;
  --mono: ui-monospace, "SF Mono", "Cascadia Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; font: 13px/20px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: var(--page); }
code, pre, kbd, textarea, .id, .url, .request-line, .status, time { font-family: var(--mono); font-size: 12px; }
h2, h3, h4 { margin: 0; }
a { color: inherit; }
.clip { display: block; min-width: 0; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.muted { color: var(--muted); }
.note, .empty { color: var(--muted); margin: 6px 0; }
.empty { padding: 16px; }
.empty code { background: var(--idle-bg); padding: 1px 4px; border-radius: 4px; }

/* Header: title, tabs, the retry policy. */
.bar { display: flex; align-items: stretch; gap: 24px; height: 46px; padding: 0 16px; background: #111827; color: #f9fafb; flex: none; }
.bar h1 { display: flex; align-items: center; gap: 8px; margin: 0; font-size: 14px; font-weight: 600; white-space: nowrap; }
.live { width: 8px; height: 8px; border-radius: 50%; background: #32d583; }
.live[data-state="offline"] { background: #f97066; }
.tabs { display: flex; gap: 2px; }
.tab { display: flex; align-items: center; gap: 6px; padding: 0 12px; color: #d0d5dd; text-decoration: none; border-bottom: 2px solid transparent; white-space: nowrap; }
.tab:hover { color: #fff; }
.tab[aria-current="page"] { color: #fff; border-bottom-color: #818cf8; }
.count { min-width: 20px; padding: 0 6px; border-radius: 9px; background: #344054; color: #e4e7ec; font-size: 11px; line-height: 18px; text-align: center; }
.policy { align-self: center; margin: 0 0 0 auto; color: #98a2b3; font-size: 12px; }

/* Trigger form. */
.toolbar { display: flex; align-items: center; gap: 8px; padding: 8px 16px; background: var(--panel); border-bottom: 1px solid var(--line); flex: none; }
.toolbar label { color: var(--muted); font-size: 12px; white-space: nowrap; }
input, textarea { font: inherit; color: var(--text); border: 1px solid #d0d5dd; border-radius: 6px; padding: 4px 8px; background: #fff; }
input:focus, textarea:focus { outline: 2px solid #c7d2fe; border-color: var(--accent); }
.toolbar input { width: 200px; font-family: var(--mono); font-size: 12px; }
.toolbar textarea { flex: 1; min-width: 0; height: 30px; min-height: 30px; resize: vertical; white-space: pre; overflow: auto; line-height: 20px; }
button { font: inherit; font-size: 12px; font-weight: 500; padding: 4px 12px; border-radius: 6px; border: 1px solid #d0d5dd; background: #fff; color: var(--text); cursor: pointer; white-space: nowrap; }
button:hover { background: #f9fafb; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.primary:hover { background: #4338ca; }
#note { width: 340px; flex: none; color: #175cd3; font-size: 12px; }

/* The events list beside the detail pane; the other tabs take the whole width. */
main { flex: 1; min-height: 0; display: grid; grid-template-columns: 380px minmax(0, 1fr); grid-template-rows: minmax(0, 1fr); }
main > [data-region] { min-height: 0; overflow: auto; }
main > .sheet { grid-column: 1 / -1; padding: 16px 20px; }
.event-list { background: var(--panel); border-right: 1px solid var(--line); }
.event { display: block; padding: 7px 14px 7px 12px; border-bottom: 1px solid var(--soft-line); border-left: 3px solid transparent; text-decoration: none; }
.event .line { display: flex; align-items: center; gap: 8px; white-space: nowrap; }
.event .line + .line { margin-top: 1px; }
.event .clip { flex: 1; }
.event .muted { font-size: 12px; }
.event:hover { background: #f9fafb; }
.event[aria-current="true"] { background: var(--accent-soft); border-left-color: var(--accent); }
.event .type { font-weight: 600; }
.event .id { color: var(--muted); font-size: 11.5px; }
.event time { font-size: 11.5px; }

/* Badges and status codes. */
.badge { padding: 0 8px; border-radius: 10px; font-size: 11px; font-weight: 600; line-height: 18px; white-space: nowrap; }
.badge.delivered { color: var(--ok); background: var(--ok-bg); }
.badge.retrying { color: var(--warn); background: var(--warn-bg); }
.badge.failed { color: var(--bad); background: var(--bad-bg); }
.badge.pending, .badge.unsubscribed { color: var(--idle); background: var(--idle-bg); }
.status { display: inline-block; padding: 0 6px; border-radius: 4px; font-weight: 600; line-height: 18px; white-space: nowrap; }
.status.ok { color: var(--ok); background: var(--ok-bg); }
.status.bad { color: var(--bad); background: var(--bad-bg); }

/* Detail pane. */
#detail { padding: 16px 24px 32px; }
.detail-head { display: flex; align-items: center; gap: 12px; }
.detail-head h2 { min-width: 0; font-size: 18px; line-height: 26px; font-weight: 600; }
.facts { display: flex; flex-wrap: wrap; gap: 4px 20px; margin: 4px 0 12px; color: var(--muted); font-size: 12px; }
.facts > span { display: flex; gap: 6px; min-width: 0; max-width: 100%; white-space: nowrap; }
.facts .clip { color: var(--text); }
#detail h3 { margin: 18px 0 8px; font-size: 12px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
details > summary { cursor: pointer; list-style: none; }
details > summary::-webkit-details-marker { display: none; }
details > summary::before { content: "\\25B8"; display: inline-block; width: 12px; color: var(--faint); transition: transform 0.1s; }
details[open] > summary::before { transform: rotate(90deg); }
.payload > summary { display: flex; align-items: center; gap: 6px; min-width: 0; }
.payload > summary .label { color: var(--muted); font-size: 12px; }
.payload > summary code { color: var(--muted); }
.payload > .body { margin-top: 6px; }
#detail > .payload { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 7px 12px; }
.delivery { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; margin-bottom: 12px; overflow: hidden; }
.delivery > header { display: flex; align-items: center; gap: 12px; padding: 9px 14px; background: #fcfcfd; border-bottom: 1px solid var(--line); }
.delivery .target { flex: 1; min-width: 0; }
.delivery .url { font-weight: 600; }
.delivery .ids { display: flex; gap: 6px; color: var(--muted); font-size: 12px; white-space: nowrap; }
.delivery .ids .id { font-size: 11.5px; max-width: 32ch; }
.attempt + .attempt { border-top: 1px solid var(--line); }
.attempt > summary { display: grid; grid-template-columns: 12px 28px 76px minmax(0, 1fr) 110px 64px 96px; align-items: center; gap: 10px; padding: 7px 14px; white-space: nowrap; }
.attempt > summary:hover { background: #f9fafb; }
.attempt > summary .n { color: var(--muted); }
.attempt > summary .status { justify-self: start; }
.attempt > summary .outcome { overflow: hidden; text-overflow: ellipsis; }
.attempt > summary .muted { text-align: right; }
.exchange { display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; padding: 6px 14px 16px 36px; }
.exchange h4 { margin-bottom: 4px; font-size: 11px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.request-line, .response-line { margin-bottom: 6px; }
.request-line b { color: var(--accent); }
pre { margin: 0; padding: 8px 10px; white-space: pre; overflow: auto; max-height: 22em; background: var(--code); border: 1px solid var(--soft-line); border-radius: 6px; line-height: 18px; }
pre.headers { margin-bottom: 6px; color: #344054; }
.request .body { max-height: 16em; }
pre.error { color: var(--bad); background: var(--bad-bg); border-color: #fbd5d0; }

/* Endpoints and batches. */
table { width: 100%; table-layout: fixed; border-collapse: separate; border-spacing: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
th { padding: 8px 12px; text-align: left; font-size: 11px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; background: #fcfcfd; border-bottom: 1px solid var(--line); }
td { padding: 7px 12px; vertical-align: top; border-bottom: 1px solid var(--soft-line); white-space: nowrap; overflow: hidden; }
tbody tr:last-child td { border-bottom: 0; }
.number { text-align: right; }
.w-id { width: 240px; } .w-events { width: 210px; } .w-format { width: 100px; } .w-description { width: 190px; }
.w-time { width: 116px; } .w-stream { width: 140px; } .w-count { width: 100px; }
.totals { margin: 0 0 12px; color: var(--muted); }
.prose { max-width: 980px; }
.prose h2 { margin: 0 0 8px; font-size: 15px; }
.prose h2 + ul, .prose h2 + p { margin-top: 0; }
.prose ul { padding-left: 18px; margin-bottom: 20px; } .prose li { margin: 4px 0; }
.prose code { white-space: nowrap; }
.prose code, kbd { background: var(--idle-bg); padding: 1px 5px; border-radius: 4px; }
`;
