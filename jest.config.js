/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // tsconfig's isolatedModules makes ts-jest transpile only: `npm run typecheck` type-checks
  // the tests (and CI runs it), so each test file does not pay for a full type-check.
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  // Engine-level suites spend most of their time in child processes: two files at a time
  // keep both cores busy.
  maxWorkers: 2,
  // A guard against a hang, not a speed limit: far above any test's time on a loaded machine.
  testTimeout: 600_000,
};
