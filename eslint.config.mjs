// Lint rules: typescript-eslint's recommended set, with the project's conventions. Layout is
// Prettier's (`npm run format`); eslint-config-prettier turns off the rules that would disagree.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import { importCycle } from "./scripts/lint/import-cycle.mjs";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", ".demo/**", "examples/*/node_modules/**", "examples/*/bin/**", "sdk/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules: {
      // Unused names are errors, except deliberately ignored ones (`_name`) and rest siblings.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // `require` is how the serialized provider and the engine load modules by path at run time.
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // No import cycles: in a cycle, load order decides which binding is still undefined at run
    // time (import-x/no-cycle, which skips type-only imports: they are gone at run time). Nor a
    // loop closed by types alone (repo/import-cycle): it ties the layers it crosses together.
    files: ["**/*.ts"],
    plugins: { "import-x": importX, repo: { rules: { "import-cycle": importCycle } } },
    settings: {
      "import-x/extensions": [".ts", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js", ".json", ".node"] })],
    },
    rules: { "import-x/no-cycle": "error", "repo/import-cycle": "error" },
  },
  {
    // The emulator's server shares the client's schemas, never its code: it must be able to disagree with a buggy client.
    // `EmulatorClient`, the client of the emulator's own API, is built on the client's HTTP core.
    files: ["emulator/**/*.ts"],
    ignores: ["emulator/operations/emulator-client.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/client", "**/client/*"], message: "the emulator's server never imports client/ (see eslint.config.mjs)" },
          ],
        },
      ],
    },
  },
  {
    // The gRPC clients of the provider host and the plugin drive the SDK's untyped generated modules.
    files: ["test/support/provider-host.ts", "test/support/provider-plugin.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  prettier,
);
