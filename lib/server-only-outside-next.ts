// What `import "server-only"` resolves to outside Next's bundler: tsx (scripts, the CLI, the worker, bench),
// vitest, Playwright and next.config.ts's loader find it through tsconfig.json's `paths`. Nothing to do there:
// the guard that matters is Next's own, which fails `next build` when a client component's imports reach a
// module marked with `import "server-only"` (lib/db/prisma.ts, lib/env.ts, …). The npm package would throw
// here instead, since only Next resolves it under the react-server condition.
export {};
