// ESLint for the hand-written source (generated output is checked by tsc and its goldens instead).
// typescript-eslint, not Biome: the rules we want most (floating and misused promises) need the type checker,
// which typescript-eslint has stable and Biome only in its nursery.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".tmp/**",
      ".stryker-tmp/**",
      "reports/**",
      "coverage/**",
      "runtime/generated/**",
      "examples/*/generated/**",
      "test/edge/app/generated/**",
      "test/edge/.build/**",
      "test/**/golden/**",
      "test/protocol/fidelity/**",
      ".spec/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["vitest.config.ts", "vitest.stryker.config.ts", "vitest.unit.config.ts"],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A forgotten promise is a lost error or an unordered write.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      // Unused code: variables, imports, parameters after the last used one (an `_` prefix marks a deliberate one).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { args: "after-used", argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      // A file is read in one sitting: hand-written source and tests alike (every line counts).
      "max-lines": ["error", { max: 350 }],
      // Filtering control characters out of network input is exactly what those regular expressions are for.
      "no-control-regex": "off",
    },
  },
  {
    // A function is one step a reader follows whole. Tests are left out: a describe/it callback is a list of cases,
    // not a step (their files still count for length above).
    files: ["**/*.ts", "**/*.js", "**/*.mjs"],
    ignores: ["test/**"],
    rules: { "max-lines-per-function": ["error", { max: 80 }] },
  },
  {
    // Tests and scripts may use `any` for deliberately malformed input; the shipped code may not.
    files: ["test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Type tests keep values only to take their types (`typeof forecast.structuredContent`).
    files: ["test/**/types/**/*.ts"],
    rules: { "@typescript-eslint/no-unused-vars": "off" },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", fetch: "readonly" } },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
);
