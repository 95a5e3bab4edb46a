/**
 * The geometry of the audit's tool-schema token chart: one bar per model request and the
 * "all tools" baseline as a horizontal line. Pure (numbers in, coordinates out) so the scale is
 * tested without a browser; the component only draws what this returns.
 */

export interface ChartBox {
  /** The SVG viewBox size; the SVG itself scales to its container. */
  readonly width: number;
  readonly height: number;
  /** Room for the axis labels (left) and request numbers (bottom). */
  readonly margin: { readonly top: number; readonly right: number; readonly bottom: number; readonly left: number };
}

export interface ChartBar {
  readonly index: number;
  readonly value: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** Where the bar's label (request number) is centred. */
  readonly centerX: number;
  /** False when bars are too narrow to label each: only every n-th one is, so labels never overlap. */
  readonly labelled: boolean;
}

export interface ChartTick {
  readonly value: number;
  readonly y: number;
}

export interface ChartLayout {
  /** The value at the top of the plot area. */
  readonly yMax: number;
  readonly plot: { readonly left: number; readonly top: number; readonly right: number; readonly bottom: number };
  readonly ticks: readonly ChartTick[];
  readonly bars: readonly ChartBar[];
  /** Absent when there is no baseline to draw (unknown, or not a positive number). */
  readonly baseline?: ChartTick;
  /** True when each bar has room for its value above it ("4.7k"); the table has the numbers otherwise. */
  readonly valueLabels: boolean;
}

/** The narrowest room a request number label needs, in viewBox units. */
export const MIN_LABEL_SPACING = 28;
/** The room a value label above a bar needs ("12.5k" at 12 px). */
export const MIN_VALUE_SPACING = 44;

export const DEFAULT_BOX: ChartBox = { width: 640, height: 260, margin: { top: 28, right: 12, bottom: 32, left: 56 } };

/**
 * The smallest "round" number (1, 2, 2.5, 5 or 10 times a power of ten) at or above `value`,
 * so the axis ends on a value a reader can take in at a glance. 0 and below give 1, so an empty
 * chart still has a scale.
 */
export function niceCeil(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const candidate = step * power;
    // Rounding guards against 0.1 * 3 style float error pushing a round value one step up.
    if (round(candidate) >= round(value)) return round(candidate);
  }
  return round(10 * power);
}

/**
 * Evenly spaced axis values from 0 to `max` inclusive. `max` is expected to come from
 * `niceCeil`; the number of intervals is the largest, up to `maxIntervals`, whose step is itself
 * a round number (1, 2, 2.5 or 5 times a power of ten), so the labels read 0, 500, 1000... and
 * stay few enough for a phone.
 */
export function tickValues(max: number, maxIntervals = 5): number[] {
  if (!(max > 0)) return [0];
  let intervals = 1;
  for (let n = 1; n <= Math.max(1, maxIntervals); n++) {
    const step = max / n;
    // Token counts are whole numbers: a whole-number axis gets whole-number ticks.
    if (Number.isInteger(max) && !Number.isInteger(round(step))) continue;
    if (isRound(step)) intervals = n;
  }
  const step = max / intervals;
  return Array.from({ length: intervals + 1 }, (_, i) => round(i * step));
}

function isRound(value: number): boolean {
  const mantissa = round(value / 10 ** Math.floor(Math.log10(value)), 6);
  return [1, 2, 2.5, 5].includes(mantissa);
}

/** Lays out `values` as bars and `baseline` as a line in `box`. */
export function layoutChart(values: readonly number[], baseline: number | undefined, box: ChartBox = DEFAULT_BOX): ChartLayout {
  const plot = {
    left: box.margin.left,
    top: box.margin.top,
    right: box.width - box.margin.right,
    bottom: box.height - box.margin.bottom,
  };
  const hasBaseline = baseline !== undefined && Number.isFinite(baseline) && baseline > 0;
  const highest = Math.max(0, ...values.filter((v) => Number.isFinite(v)), hasBaseline ? baseline : 0);
  const yMax = niceCeil(highest);
  const plotHeight = plot.bottom - plot.top;
  const yOf = (value: number) => plot.bottom - (clamp(value, 0, yMax) / yMax) * plotHeight;

  const slot = values.length > 0 ? (plot.right - plot.left) / values.length : 0;
  // A gap between bars of a third of the slot, but bars never wider than 48 units, so two
  // requests do not look like a solid block.
  const barWidth = Math.min(48, slot * (2 / 3));
  const labelStep = slot > 0 ? Math.max(1, Math.ceil(MIN_LABEL_SPACING / slot)) : 1;
  const bars = values.map((raw, index): ChartBar => {
    const value = Number.isFinite(raw) ? Math.max(0, raw) : 0;
    const centerX = plot.left + slot * index + slot / 2;
    const y = yOf(value);
    return { index, value, x: centerX - barWidth / 2, y, width: barWidth, height: plot.bottom - y, centerX, labelled: index % labelStep === 0 };
  });

  return {
    yMax,
    plot,
    ticks: tickValues(yMax).map((value) => ({ value, y: yOf(value) })),
    bars,
    valueLabels: slot >= MIN_VALUE_SPACING,
    ...(hasBaseline ? { baseline: { value: baseline, y: yOf(baseline) } } : {}),
  };
}

/** The share of the baseline a request used, as a whole percent (undefined without a baseline). */
export function percentOf(value: number, baseline: number | undefined): number | undefined {
  if (baseline === undefined || !(baseline > 0)) return undefined;
  return Math.round((value / baseline) * 100);
}

/** Axis labels: 12 500 → "12.5k", so the left margin fits long catalogues. */
export function shortNumber(value: number): string {
  if (Math.abs(value) < 1000) return String(round(value));
  const thousands = value / 1000;
  return `${Number.isInteger(thousands) ? thousands : round(thousands, 1)}k`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function round(value: number, digits = 6): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * The chart in one sentence, for its aria-label: how many requests, their range, and how that
 * compares with sending every tool.
 */
export function chartSummary(values: readonly number[], baseline: number | undefined): string {
  if (values.length === 0) return 'Tool-schema tokens per model request: no model requests yet.';
  const low = Math.min(...values);
  const high = Math.max(...values);
  const count = `${values.length} model request${values.length === 1 ? '' : 's'}`;
  const range = low === high ? `${formatCount(low)} tokens each` : `from ${formatCount(low)} to ${formatCount(high)} tokens`;
  let text = `Tool-schema tokens per model request: ${count}, ${range}.`;
  const lowShare = percentOf(low, baseline);
  const highShare = percentOf(high, baseline);
  if (baseline !== undefined && lowShare !== undefined && highShare !== undefined) {
    const share = lowShare === highShare ? `${lowShare}%` : `${lowShare}% to ${highShare}%`;
    text += ` Sending all tools would take ${formatCount(baseline)} tokens per request; these requests used ${share} of that.`;
  }
  return text;
}

/** 18433 → "18,433" in every locale the tests run in (the grouping is fixed, not the user's). */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
