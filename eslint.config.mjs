import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier";

// Domains meet at their entries: lib/interface and each stage of lib/transfers are imported through their
// index.ts (or client-safe.ts, from client components), never file by file; inside one, file by file.
const STAGES = ["intake", "queue", "review", "decision", "record"];

/** Refuses an import of lib/interface or lib/transfers unless what follows "lib/" matches one of `allowed`. */
function refuseUnless(allowed, message) {
  const regex = `(?:^|/)lib/(?!${allowed.join("|")})(?:interface|transfers)(?:/|$)`;
  return { "no-restricted-imports": ["error", { patterns: [{ regex, message }] }] };
}

function transferBoundaries() {
  const entries = (stages) => `(?:interface|transfers/(?:${stages.join("|")}))(?:/client-safe)?$`;
  const outside = "import lib/interface and lib/transfers/<stage> through index.ts (client components: client-safe.ts)";
  return [
    { rules: refuseUnless([entries(STAGES)], outside) },
    { files: ["lib/transfers/queries/**"], rules: refuseUnless([entries(STAGES), "transfers/queries/"], outside) },
    // Immediate confirmation judges and stores a transfer inside the intake's own insert statement, so it builds
    // on the intake's SQL (queries/intake.ts); through the intake's entry it would import itself back.
    {
      files: ["lib/immediate-confirm/**"],
      rules: refuseUnless([entries(STAGES), "transfers/queries/intake$"], outside),
    },
    ...STAGES.map((stage) => ({
      files: [`lib/transfers/${stage}/**`],
      rules: refuseUnless(
        [entries(STAGES.filter((other) => other !== stage)), `transfers/${stage}/`, "transfers/queries/"],
        "inside a stage, its own files directly; other stages and lib/interface through their entries",
      ),
    })),
    {
      files: ["lib/interface/**"],
      rules: refuseUnless(["interface/"], "the interface kernel imports no transfer stage, and its own files directly"),
    },
  ];
}

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
  ...transferBoundaries(),
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
