/** The dpi range of pdf_render_page (CATALOGUE.md section 8): out-of-range requests are clamped, not refused. */
export const MIN_DPI = 72;
export const MAX_DPI = 300;
export const DEFAULT_DPI = 150;

export interface RenderLimits {
  /** Most pixels one image may have: the page is drawn in memory at 4 bytes a pixel first. */
  readonly maxPixels: number;
  /** Longest side in pixels (canvas backends refuse larger surfaces). */
  readonly maxSide: number;
}

/** 25 MP (100 MB of canvas) holds a US Letter or A4 page at 300 dpi with room to spare. */
export const DEFAULT_RENDER_LIMITS: RenderLimits = { maxPixels: 25_000_000, maxSide: 16_384 };

export interface RenderPlan {
  readonly dpi: number;
  readonly width: number;
  readonly height: number;
  /** Why `dpi` differs from what was asked: outside 72..300, or the page too large for the pixel cap. */
  readonly adjusted?: 'range' | 'size';
}

/** The dpi and pixel size to render a page of `widthPt` x `heightPt` points (1/72 inch) at. */
export function planRender(widthPt: number, heightPt: number, requestedDpi: number, limits: RenderLimits = DEFAULT_RENDER_LIMITS): RenderPlan {
  const inRange = Math.min(MAX_DPI, Math.max(MIN_DPI, requestedDpi));
  let dpi = inRange;
  let size = pixels(widthPt, heightPt, dpi);
  if (fits(size, limits)) return { dpi, ...size, ...(inRange !== requestedDpi ? { adjusted: 'range' as const } : {}) };

  const byArea = 72 * Math.sqrt(limits.maxPixels / (widthPt * heightPt));
  const bySide = (72 * limits.maxSide) / Math.max(widthPt, heightPt);
  // Whole dpi values read better in the answer; rounding of the pixel size may still overshoot by one step.
  dpi = Math.max(1, Math.floor(Math.min(byArea, bySide, inRange)));
  size = pixels(widthPt, heightPt, dpi);
  while (dpi > 1 && !fits(size, limits)) {
    dpi -= 1;
    size = pixels(widthPt, heightPt, dpi);
  }
  return { dpi, ...size, adjusted: 'size' };
}

function pixels(widthPt: number, heightPt: number, dpi: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round((widthPt * dpi) / 72)), height: Math.max(1, Math.round((heightPt * dpi) / 72)) };
}

function fits(size: { width: number; height: number }, limits: RenderLimits): boolean {
  return size.width * size.height <= limits.maxPixels && Math.max(size.width, size.height) <= limits.maxSide;
}
