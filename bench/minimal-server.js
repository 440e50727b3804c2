"use strict";
// Child process of bench/run.js: the floor a client is measured against — an HTTP server
// that only reads each request body, parses it as JSON, and answers 200 with a small id.
// Over IPC: { cmd: "start" } → { kind: "started", url }; { cmd: "stop" } → { kind: "stopped" }.

const http = require("node:http");

let server;
let count = 0;

function start() {
  server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let status = 200;
      try {
        JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        status = 400;
      }
      count++;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(`{"id":"msba_${count}"}`);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

process.on("message", (message) => {
  if (message.cmd === "start") {
    start().then((url) => process.send({ kind: "started", url }));
  } else if (message.cmd === "stop") {
    server.closeAllConnections();
    server.close(() => {
      process.send({ kind: "stopped", requests: count });
      process.disconnect();
    });
  }
});
