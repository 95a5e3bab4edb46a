/** The dpi range of pdf_render_page (CATALOGUE.md section 8): out-of-range requests are clamped, not refused. */
export const MIN_DPI = 72;
export const MAX_DPI = 300;
export const DEFAULT_DPI = 150;

/**
 * The longest page side a PDF can describe: 14 400 units (ISO 32000-1, Annex C) times the largest
 * UserUnit (75 000), 15 million inches. Anything larger (an absurd MediaBox, or one that overflowed
 * to Infinity) comes from a damaged or hostile file, and the scale that would fit it into an image
 * is small enough to vanish in the canvas's 32-bit floats.
 */
export const MAX_PAGE_PT = 14_400 * 75_000;

export interface RenderLimits {
  /** Most pixels one image may have: the page is drawn in memory at 4 bytes a pixel first. */
  readonly maxPixels: number;
  /** Longest side in pixels (canvas backends refuse larger surfaces). */
  readonly maxSide: number;
}

/** 25 MP (100 MB of canvas) holds a US Letter or A4 page at 300 dpi with room to spare. */
export const DEFAULT_RENDER_LIMITS: RenderLimits = { maxPixels: 25_000_000, maxSide: 16_384 };

export interface RenderPlan {
  /** Whole from 1 up; a page too large to fit even at 1 dpi gets two significant digits (0.3). */
  readonly dpi: number;
  readonly width: number;
  readonly height: number;
  /** Why `dpi` differs from what was asked: outside 72..300, or the page too large for the pixel cap. */
  readonly adjusted?: 'range' | 'size';
}

/** A page no image can be drawn of: its size is not a positive number, or it is over MAX_PAGE_PT (or the limits allow no pixel). */
export interface RenderRefusal {
  readonly refused: 'empty' | 'too_large';
}

/**
 * The dpi and pixel size to render a page of `widthPt` x `heightPt` points (1/72 inch) at. A plan
 * always fits `limits`: a page too large for them is drawn smaller, below 1 dpi when it must, the
 * way a viewer fits a page to its window.
 */
export function planRender(widthPt: number, heightPt: number, requestedDpi: number, limits: RenderLimits = DEFAULT_RENDER_LIMITS): RenderPlan | RenderRefusal {
  // Written so that NaN is refused too.
  if (!(widthPt > 0 && heightPt > 0)) return { refused: 'empty' };
  // Limits that allow not even one pixel would leave nothing to shrink to.
  if (widthPt > MAX_PAGE_PT || heightPt > MAX_PAGE_PT || !fitsRenderLimits({ width: 1, height: 1 }, limits)) return { refused: 'too_large' };
  const inRange = Number.isNaN(requestedDpi) ? DEFAULT_DPI : Math.min(MAX_DPI, Math.max(MIN_DPI, requestedDpi));
  let dpi = inRange;
  let size = pixels(widthPt, heightPt, dpi);
  if (fitsRenderLimits(size, limits)) return { dpi, ...size, ...(inRange !== requestedDpi ? { adjusted: 'range' as const } : {}) };

  const byArea = 72 * Math.sqrt(limits.maxPixels / (widthPt * heightPt));
  const bySide = (72 * limits.maxSide) / Math.max(widthPt, heightPt);
  dpi = roundDown(Math.min(byArea, bySide, inRange));
  size = pixels(widthPt, heightPt, dpi);
  // Rounding of the pixel size may still overshoot by one step; 1 x 1 fits, so this ends.
  while (!fitsRenderLimits(size, limits)) {
    dpi = stepDown(dpi);
    size = pixels(widthPt, heightPt, dpi);
  }
  return { dpi, ...size, adjusted: 'size' };
}

/** Whether an image of `size` pixels is within `limits` (the worker checks again before it allocates). */
export function fitsRenderLimits(size: { readonly width: number; readonly height: number }, limits: RenderLimits): boolean {
  return size.width >= 1 && size.height >= 1 && size.width * size.height <= limits.maxPixels && Math.max(size.width, size.height) <= limits.maxSide;
}

/** The limits as the answers state them: "25 megapixels (16384 pixels a side)". */
export function describeRenderLimits(limits: RenderLimits): string {
  return `${limits.maxPixels / 1_000_000} megapixels (${limits.maxSide} pixels a side)`;
}

function pixels(widthPt: number, heightPt: number, dpi: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round((widthPt * dpi) / 72)), height: Math.max(1, Math.round((heightPt * dpi) / 72)) };
}

// Whole dpi values read better in the answer; below 1 dpi, two significant digits (0.36, 0.0042).
function roundDown(dpi: number): number {
  if (dpi >= 1) return Math.floor(dpi);
  const unit = digitUnit(dpi);
  // The small epsilon keeps 0.3 / 0.01 = 29.999999999999996 at 30.
  return Number((Math.floor(dpi / unit + 1e-9) * unit).toPrecision(2));
}

function stepDown(dpi: number): number {
  return dpi > 1 ? dpi - 1 : Number((dpi - digitUnit(dpi)).toPrecision(2));
}

/** The value of the second significant digit of `dpi` (0.01 for 0.36). */
function digitUnit(dpi: number): number {
  return 10 ** (Math.floor(Math.log10(dpi)) - 1);
}
