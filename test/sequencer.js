/**
 * The order jest starts test files in: longest first, so that neither worker idles at the end.
 * Jest's own order (its last run's times, else file size) is kept within three groups: `FIRST`,
 * the longest file; the other files that run the real `pulumi` (the engine and languages tiers),
 * whose size says little of their time; then the rest.
 */
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const FIRST = new Set(["test/engine/kill-anywhere.test.ts"]);
const SLOW_TIERS = new Set(["engine", "languages"]);

class SlowestFirst extends Sequencer {
  sort(tests) {
    const group = (test) => {
      if (FIRST.has(path.relative(test.context.config.rootDir, test.path).split(path.sep).join("/"))) return 0;
      return SLOW_TIERS.has(test.context.config.displayName?.name) ? 1 : 2;
    };
    return super
      .sort(tests)
      .map((test, index) => ({ test, index, group: group(test) }))
      .sort((a, b) => a.group - b.group || a.index - b.index)
      .map(({ test }) => test);
  }
}

module.exports = SlowestFirst;
