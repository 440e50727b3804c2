/**
 * The client loads undici's Agent by its file, not through undici's index (which loads
 * fetch, WebSocket and the rest): this holds the file to being the index's `Agent`, so an
 * undici release that moves it fails here rather than in users' processes.
 */
import { Agent } from "undici";

it("undici/lib/dispatcher/agent is undici's Agent", () => {
  expect(require("undici/lib/dispatcher/agent")).toBe(Agent);
});
