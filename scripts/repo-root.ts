import * as fs from "node:fs";
import * as path from "node:path";

/**
 * This repository: the nearest folder above this file with our package.json, the same from
 * source (the test harness, under ts-jest) and from dist/ (the demo, the plugin's packer).
 */
export const REPO_ROOT = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-messaging") return dir;
  }
  throw new Error(`no pulumi-messaging package.json above ${__dirname}`);
})();
