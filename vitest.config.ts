import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Language servers are heavy: two cores run two test files at a time.
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['packages/*/src/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'] } },
    ],
  },
});
