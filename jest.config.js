/**
 * Four tiers, each a jest project (`npm run test:unit`, `test:emulator`, `test:engine`,
 * `test:languages`; `npm test` runs them all). A test's tier is its top-level folder under
 * `test/`, by the table below; test/README.md says what belongs where.
 * - unit: schemas, client, provider runtimes, receivers, and every generated file against its
 *   generator (test/generated): no child process, no packed package, no Go;
 * - engine: the real `pulumi` CLI (test/engine), and the plugin deployed by it (test/plugin);
 *   its globalSetup finds or builds the CLI;
 * - languages: the generated SDKs (sdk/) fresh and compiled, and the Python, Go and TypeScript
 *   programs using them deployed by the real CLI; its globalSetup finds the CLI, Python and Go;
 * - emulator: every other folder (the emulator, the CLI, examples, docs, the packed package),
 *   so a new test folder always runs somewhere.
 * @type {import('jest').Config}
 */
const TIER_FOLDERS = {
  unit: ["schemas", "client", "provider", "receiver", "generated"],
  engine: ["engine", "plugin"],
  languages: ["languages"],
};
const [UNIT, ENGINE, LANGUAGES] = [TIER_FOLDERS.unit, TIER_FOLDERS.engine, TIER_FOLDERS.languages].map((folders) =>
  folders.map((folder) => `<rootDir>/test/${folder}/`),
);

const common = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // tsconfig's isolatedModules makes ts-jest transpile only: `npm run typecheck` type-checks
  // the tests (and CI runs it), so each test file does not pay for a full type-check.
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
};

const engine = {
  ...common,
  displayName: "engine",
  testMatch: ENGINE.map((dir) => `${dir}**/*.test.ts`),
  globalSetup: "<rootDir>/test/find-pulumi-cli.js",
  globalTeardown: "<rootDir>/test/report-pulumi-counts.js",
};

module.exports = {
  projects: [
    { ...common, displayName: "unit", testMatch: UNIT.map((dir) => `${dir}**/*.test.ts`) },
    { ...common, displayName: "emulator", testPathIgnorePatterns: ["/node_modules/", ...UNIT, ...ENGINE, ...LANGUAGES] },
    engine,
    {
      ...common,
      displayName: "languages",
      testMatch: LANGUAGES.map((dir) => `${dir}**/*.test.ts`),
      globalSetup: "<rootDir>/test/languages/prepare-toolchains.js",
      globalTeardown: "<rootDir>/test/languages/teardown.js",
    },
  ],
  // The package is packed once per run, for every test that installs it.
  globalSetup: "<rootDir>/test/pack-once.js",
  globalTeardown: "<rootDir>/test/pack-once-teardown.js",
  // Engine-level suites spend most of their time in child processes: two files at a time
  // keep both cores busy, the longest started first (test/sequencer.js).
  maxWorkers: 2,
  testSequencer: "<rootDir>/test/sequencer.js",
  // A guard against a hang, not a speed limit: far above any test's time on a loaded machine.
  testTimeout: 600_000,
};
