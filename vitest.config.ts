import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,electron,sandbox,renderer,scripts,bench}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest empties CSS imports unless told: the style tests read theme.css and fonts.css ?raw.
    css: { include: [/styles\/(theme|fonts)\.css/] },
  },
});
