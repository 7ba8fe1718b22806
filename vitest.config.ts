import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    // The PostgreSQL server for the store/pg suites (issue 35): CI's, or a throwaway cluster.
    globalSetup: ['test/helpers/pg-global-setup.ts'],
    // The clock is injected everywhere; TZ is pinned so a stray Date#toString cannot differ by machine.
    env: { TZ: 'UTC', NO_COLOR: '1' },
  },
});
