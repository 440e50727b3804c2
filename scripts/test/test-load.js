"use strict";
// `npm run test:load`: the whole suite (`npm test`) with two busy-loop processes beside it,
// the load a shared CI runner or a busy laptop puts on a 2-core machine. A test that depends
// on timing fails here. The busy loops are ended however the suite ends.
const { spawn } = require("node:child_process");

const BUSY_LOOPS = 2;
const loops = Array.from({ length: BUSY_LOOPS }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
const stopLoops = () => loops.forEach((loop) => loop.kill("SIGKILL"));
process.on("exit", stopLoops);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

const suite = spawn("npm", ["test", "--", ...process.argv.slice(2)], { stdio: "inherit" });
suite.on("close", (code, signal) => {
  stopLoops();
  process.exit(code ?? (signal ? 1 : 0));
});
