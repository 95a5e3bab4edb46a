import { describe, expect, it } from '@jest/globals';
import { DEFAULT_RENDER_LIMITS, planRender } from './render-plan';

const LETTER = [612, 792] as const;

describe('planRender', () => {
  it('renders at the dpi asked for when it is inside 72..300 and fits', () => {
    expect(planRender(...LETTER, 150)).toEqual({ dpi: 150, width: 1275, height: 1650 });
    expect(planRender(...LETTER, 300)).toEqual({ dpi: 300, width: 2550, height: 3300 });
  });

  it('clamps the dpi to 72..300 and marks it', () => {
    expect(planRender(...LETTER, 1200)).toEqual({ dpi: 300, width: 2550, height: 3300, adjusted: 'range' });
    expect(planRender(...LETTER, 10)).toEqual({ dpi: 72, width: 612, height: 792, adjusted: 'range' });
  });

  it('lowers the dpi of a page too large for the pixel cap (a 50 x 50 inch poster at 300 dpi)', () => {
    const plan = planRender(3600, 3600, 300);
    // sqrt(25e6) = 5000 pixels a side over 50 inches: 100 dpi.
    expect(plan).toEqual({ dpi: 100, width: 5000, height: 5000, adjusted: 'size' });
    expect(plan.width * plan.height).toBeLessThanOrEqual(DEFAULT_RENDER_LIMITS.maxPixels);
  });

  it('keeps the longest side under the cap for a long thin page, going below 72 dpi when it must', () => {
    const plan = planRender(200, 14_400, 150);
    expect(plan.adjusted).toBe('size');
    expect(plan.height).toBeLessThanOrEqual(DEFAULT_RENDER_LIMITS.maxSide);
    expect(plan.dpi).toBe(81); // 72 * 16384 / 14400 = 81.9
    expect(planRender(14_400, 14_400, 72)).toMatchObject({ dpi: 25, width: 5000, height: 5000, adjusted: 'size' });
  });
});
