import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier";

const config = [
  ...nextVitals,
  ...nextTs,
  prettier,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // One validated environment module: nothing else reads process.env (scripts and tooling set it up).
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "read settings through lib/env.ts" },
      ],
    },
  },
  {
    files: [
      "scripts/**",
      "tests/**",
      "e2e/**",
      "prisma/**",
      "prisma.config.ts",
      "lib/env.ts",
      "next.config.ts",
      "lib/db/**",
      "bench/**",
      "playwright.config.ts",
      "vitest.config.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    ignores: [
      ".next/**",
      "generated/**",
      "node_modules/**",
      ".data/**",
      "next-env.d.ts",
      "bench/results/**",
      "test-results/**",
      "playwright-report/**",
    ],
  },
];

export default config;
