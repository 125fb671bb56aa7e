import { describe, expect, it } from 'vitest';
import { MAX_CANVAS_PX, scrollGeometry } from './scrollGeometry.ts';

describe('scroll geometry', () => {
  it('is 1:1 while the rows fit the canvas', () => {
    const g = scrollGeometry(1000, 32, 320);
    expect(g.canvasHeight).toBe(32_000);
    expect(g.firstRow(3200)).toBe(100);
    expect(g.scrollTopFor(100)).toBe(3200);
  });

  it('maps millions of rows onto a capped canvas, reaching the first and the last row', () => {
    const rows = 5_000_000;
    const g = scrollGeometry(rows, 32, 640);
    expect(g.canvasHeight).toBe(MAX_CANVAS_PX);
    expect(g.firstRow(0)).toBe(0);
    const bottom = g.canvasHeight - 640;
    expect(g.firstRow(bottom)).toBeCloseTo(rows - 20, 6); // the last 20 rows fill the view
    expect(g.firstRow(g.scrollTopFor(2_500_000))).toBeCloseTo(2_500_000, 6);
    expect(g.firstRow(bottom * 10)).toBeCloseTo(rows - 20, 6);
    expect(g.scrollTopFor(rows * 2)).toBe(bottom);
  });

  it('copes with no rows and with a view taller than the rows', () => {
    expect(scrollGeometry(0, 32, 500).firstRow(100)).toBe(0);
    expect(scrollGeometry(5, 32, 500).scrollTopFor(3)).toBe(0);
  });
});
