import { describe, expect, it } from '@jest/globals';
import { DEFAULT_RENDER_LIMITS, MAX_DPI, MAX_PAGE_PT, MIN_DPI, planRender, type RenderLimits, type RenderPlan } from './render-plan';

const LETTER = [612, 792] as const;

/** The plan for a page that can be drawn; fails the test on a refusal. */
function plan(widthPt: number, heightPt: number, dpi: number, limits?: RenderLimits): RenderPlan {
  const result = planRender(widthPt, heightPt, dpi, limits);
  if ('refused' in result) throw new Error(`refused ${widthPt} x ${heightPt} pt: ${result.refused}`);
  return result;
}

describe('planRender', () => {
  it('renders at the dpi asked for when it is inside 72..300 and fits', () => {
    expect(planRender(...LETTER, 150)).toEqual({ dpi: 150, width: 1275, height: 1650 });
    expect(planRender(...LETTER, 300)).toEqual({ dpi: 300, width: 2550, height: 3300 });
  });

  it('clamps the dpi to 72..300 and marks it', () => {
    expect(planRender(...LETTER, 1200)).toEqual({ dpi: 300, width: 2550, height: 3300, adjusted: 'range' });
    expect(planRender(...LETTER, 10)).toEqual({ dpi: 72, width: 612, height: 792, adjusted: 'range' });
    expect(planRender(...LETTER, Number.NaN)).toEqual({ dpi: 150, width: 1275, height: 1650, adjusted: 'range' });
  });

  it('lowers the dpi of a page too large for the pixel cap (a 50 x 50 inch poster at 300 dpi)', () => {
    const poster = plan(3600, 3600, 300);
    // sqrt(25e6) = 5000 pixels a side over 50 inches: 100 dpi.
    expect(poster).toEqual({ dpi: 100, width: 5000, height: 5000, adjusted: 'size' });
    expect(poster.width * poster.height).toBeLessThanOrEqual(DEFAULT_RENDER_LIMITS.maxPixels);
  });

  it('keeps the longest side under the cap for a long thin page, going below 72 dpi when it must', () => {
    const long = plan(200, 14_400, 150);
    expect(long.adjusted).toBe('size');
    expect(long.height).toBeLessThanOrEqual(DEFAULT_RENDER_LIMITS.maxSide);
    expect(long.dpi).toBe(81); // 72 * 16384 / 14400 = 81.9
    expect(planRender(14_400, 14_400, 72)).toMatchObject({ dpi: 25, width: 5000, height: 5000, adjusted: 'size' });
  });

  it('goes below 1 dpi for a page too large to fit even at 1 dpi, instead of stopping at 1 over the cap', () => {
    // The 600-byte PDF of the bug report: at 1 dpi it was 16667 x 16667 pixels (278 MP, 1.27 GB of canvas).
    expect(planRender(1_200_000, 1_200_000, 150)).toEqual({ dpi: 0.3, width: 5000, height: 5000, adjusted: 'size' });
    expect(planRender(10_000_000, 10_000_000, 150)).toEqual({ dpi: 0.036, width: 5000, height: 5000, adjusted: 'size' });
    // 72 * 5000 / 1656000 = 0.2174, kept to two significant digits.
    expect(planRender(1_656_000, 1_656_000, 150)).toEqual({ dpi: 0.21, width: 4830, height: 4830, adjusted: 'size' });
    // The longest side decides for a strip: 72 * 16384 / 1e9 = 0.00118.
    expect(planRender(10, 1_000_000_000, 300)).toEqual({ dpi: 0.0011, width: 1, height: 15_278, adjusted: 'size' });
  });

  it('never plans an image over the caps, for any page size from a speck to the largest a PDF can describe', () => {
    const sides = [0.001, 0.5, 1, 3, 72, 612, 792, 3600, 14_400, 72_000, 1_200_000, 1e7, 1e8, 123_456_789, MAX_PAGE_PT];
    const limitSets: RenderLimits[] = [DEFAULT_RENDER_LIMITS, { maxPixels: 1_000_000, maxSide: 16_384 }, { maxPixels: 10_000, maxSide: 150 }];
    for (const limits of limitSets) {
      for (const width of sides) {
        for (const height of sides) {
          for (const dpi of [1, 72, 150, 300, 1e9]) {
            const result = plan(width, height, dpi, limits);
            const where = `${width} x ${height} pt at ${dpi} dpi, limits ${limits.maxPixels}/${limits.maxSide}`;
            expect({ where, fits: result.width * result.height <= limits.maxPixels && Math.max(result.width, result.height) <= limits.maxSide }).toEqual({
              where,
              fits: true,
            });
            expect(Number.isInteger(result.width) && Number.isInteger(result.height) && result.width >= 1 && result.height >= 1).toBe(true);
            expect(result.dpi).toBeGreaterThan(0);
            expect(result.dpi).toBeLessThanOrEqual(Math.min(MAX_DPI, Math.max(MIN_DPI, dpi)));
          }
        }
      }
    }
  });

  it('draws a page smaller than a pixel as one pixel', () => {
    expect(planRender(0.001, 0.001, 72)).toEqual({ dpi: 72, width: 1, height: 1 });
    expect(planRender(0.5, 2000, 150)).toEqual({ dpi: 150, width: 1, height: 4167 });
  });

  it('refuses a page with no area, or larger than a PDF page can be (a damaged or hostile file), instead of planning an image', () => {
    for (const [width, height] of [
      [0, 792],
      [612, -1],
      [Number.NaN, 792],
    ] as const) {
      expect(planRender(width, height, 150)).toEqual({ refused: 'empty' });
    }
    for (const [width, height] of [
      [MAX_PAGE_PT * 2, 792],
      [612, Number.POSITIVE_INFINITY],
      [1e300, 1e300],
    ] as const) {
      expect(planRender(width, height, 150)).toEqual({ refused: 'too_large' });
    }
  });

  it('refuses rather than loop when the limits allow not even one pixel', () => {
    expect(planRender(...LETTER, 150, { maxPixels: 0, maxSide: 0 })).toEqual({ refused: 'too_large' });
  });
});
