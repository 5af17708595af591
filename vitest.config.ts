import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Language servers are heavy: two cores run two test files at a time.
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Every test process: AGENT_LSP_HOME is a file, so a CLI started without a temporary home fails
    // instead of writing into the user's state dir.
    setupFiles: ['test/helpers/guardHome.ts'],
    projects: [
      // Unit tests start no process and restore what they change (fake timers, PATH): one module
      // graph per worker instead of one per file (most of their time was importing).
      { extends: true, test: { name: 'unit', include: ['packages/*/src/**/*.test.ts'], isolate: false } },
      // Fixtures are workspaces the tests run tools on; their own test files are not ours to run.
      // The field tests' full tier (*.full.test.ts) runs only under `pnpm test:field --full`.
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          // Each file ends the processes it starts and changes no process-wide state (the home guard
          // of setupFiles runs for every file): one module graph per worker, not one per file
          // (importing was ~130 s of the suite).
          isolate: false,
          exclude: [...configDefaults.exclude, 'test/fixtures/**', 'test/runners/fixtures/**', ...(process.env['AGENT_LSP_FIELD_FULL'] === '1' ? [] : ['test/**/*.full.test.ts'])],
        },
      },
    ],
  },
});
