import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,electron,sandbox,renderer,scripts,bench}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
