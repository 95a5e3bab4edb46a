import { describe, expect, it } from '@jest/globals';
import { chartSummary, DEFAULT_BOX, layoutChart, niceCeil, percentOf, shortNumber, tickValues, type ChartBox } from './chart-scale';

const BOX: ChartBox = { width: 400, height: 200, margin: { top: 20, right: 10, bottom: 30, left: 40 } };

describe('niceCeil', () => {
  it('rounds up to 1, 2, 2.5, 5 or 10 times a power of ten', () => {
    expect(niceCeil(1)).toBe(1);
    expect(niceCeil(1.2)).toBe(2);
    expect(niceCeil(2.2)).toBe(2.5);
    expect(niceCeil(3)).toBe(5);
    expect(niceCeil(7)).toBe(10);
    expect(niceCeil(1234)).toBe(2000);
    expect(niceCeil(2400)).toBe(2500);
    expect(niceCeil(18_433)).toBe(20_000);
    expect(niceCeil(0.3)).toBeCloseTo(0.5);
  });

  it('keeps a value that is already round', () => {
    expect(niceCeil(500)).toBe(500);
    expect(niceCeil(2500)).toBe(2500);
    expect(niceCeil(100_000)).toBe(100_000);
  });

  it('gives 1 for zero, negatives and non-numbers, so an empty chart still has a scale', () => {
    expect(niceCeil(0)).toBe(1);
    expect(niceCeil(-5)).toBe(1);
    expect(niceCeil(Number.NaN)).toBe(1);
    expect(niceCeil(Number.POSITIVE_INFINITY)).toBe(1);
  });
});

describe('tickValues', () => {
  it('splits a round maximum into round steps, at most five intervals', () => {
    expect(tickValues(1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(tickValues(2000)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(tickValues(2500)).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(tickValues(20_000)).toEqual([0, 5000, 10_000, 15_000, 20_000]);
  });

  it('never makes fractional ticks on a whole-number axis', () => {
    expect(tickValues(1)).toEqual([0, 1]);
    expect(tickValues(2)).toEqual([0, 1, 2]);
    expect(tickValues(5)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('honours a smaller interval limit', () => {
    expect(tickValues(1000, 2)).toEqual([0, 500, 1000]);
  });

  it('gives a single tick for an empty scale', () => {
    expect(tickValues(0)).toEqual([0]);
  });
});

describe('layoutChart', () => {
  it('puts the baseline and the bars on one scale that holds the highest of them', () => {
    const layout = layoutChart([300, 900], 1800, BOX);
    expect(layout.yMax).toBe(2000);
    expect(layout.plot).toEqual({ left: 40, top: 20, right: 390, bottom: 170 });
    // 150 units of plot height for 2000 tokens.
    expect(layout.baseline).toEqual({ value: 1800, y: 170 - (1800 / 2000) * 150 });
    expect(layout.bars.map((b) => b.value)).toEqual([300, 900]);
    expect(layout.bars[0]!.height).toBeCloseTo((300 / 2000) * 150);
    expect(layout.bars[1]!.height).toBeCloseTo((900 / 2000) * 150);
    for (const bar of layout.bars) expect(bar.y + bar.height).toBeCloseTo(170);
  });

  it('a bar taller than the baseline raises the scale instead of being cut', () => {
    const layout = layoutChart([3000], 1000, BOX);
    expect(layout.yMax).toBe(5000);
    expect(layout.bars[0]!.y).toBeGreaterThan(layout.plot.top - 0.001);
    expect(layout.baseline!.y).toBeGreaterThan(layout.bars[0]!.y);
  });

  it('spreads bars over equal slots, centred, in request order, never wider than 48 units', () => {
    const layout = layoutChart([1, 2, 3, 4, 5], undefined, BOX);
    const slot = (390 - 40) / 5;
    layout.bars.forEach((bar, i) => {
      expect(bar.index).toBe(i);
      expect(bar.centerX).toBeCloseTo(40 + slot * i + slot / 2);
      expect(bar.x + bar.width / 2).toBeCloseTo(bar.centerX);
      expect(bar.width).toBeLessThanOrEqual(48);
    });
    const one = layoutChart([10], undefined, BOX);
    expect(one.bars[0]!.width).toBe(48);
  });

  it('labels every bar when there is room, and only every n-th one when bars get narrow', () => {
    expect(layoutChart([1, 2, 3], undefined, BOX).bars.every((b) => b.labelled)).toBe(true);
    // 350 units for 50 bars: 7 units a slot, so every 4th bar (28 units apart) is labelled.
    const crowded = layoutChart(
      Array.from({ length: 50 }, (_, i) => i),
      undefined,
      BOX,
    );
    expect(crowded.bars.filter((b) => b.labelled).map((b) => b.index)).toEqual(Array.from({ length: 13 }, (_, i) => i * 4));
    // Values above the bars only while each slot has 44 units: 350 / 7 = 50, 350 / 8 = 43.75.
    expect(layoutChart([1, 2, 3, 4, 5, 6, 7], undefined, BOX).valueLabels).toBe(true);
    expect(layoutChart([1, 2, 3, 4, 5, 6, 7, 8], undefined, BOX).valueLabels).toBe(false);
    expect(crowded.valueLabels).toBe(false);
  });

  it('draws no baseline when it is unknown or not positive', () => {
    expect(layoutChart([5], undefined, BOX).baseline).toBeUndefined();
    expect(layoutChart([5], 0, BOX).baseline).toBeUndefined();
    expect(layoutChart([5], Number.NaN, BOX).baseline).toBeUndefined();
  });

  it('treats broken values as zero-height bars and lays out an empty series', () => {
    const layout = layoutChart([Number.NaN, -3], 100, BOX);
    expect(layout.bars.map((b) => b.height)).toEqual([0, 0]);
    const empty = layoutChart([], undefined);
    expect(empty.bars).toEqual([]);
    expect(empty.yMax).toBe(1);
    expect(empty.plot.right).toBe(DEFAULT_BOX.width - DEFAULT_BOX.margin.right);
  });

  it('gives ticks from the bottom of the plot to its top', () => {
    const layout = layoutChart([900], undefined, BOX);
    expect(layout.ticks[0]).toEqual({ value: 0, y: 170 });
    expect(layout.ticks.at(-1)).toEqual({ value: 1000, y: 20 });
  });
});

describe('percentOf and shortNumber', () => {
  it('gives the whole percent of the baseline, or nothing without one', () => {
    expect(percentOf(1500, 10_000)).toBe(15);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(10, undefined)).toBeUndefined();
    expect(percentOf(10, 0)).toBeUndefined();
  });

  it('shortens thousands for the axis', () => {
    expect(shortNumber(0)).toBe('0');
    expect(shortNumber(999)).toBe('999');
    expect(shortNumber(5000)).toBe('5k');
    expect(shortNumber(12_500)).toBe('12.5k');
  });
});

describe('chartSummary', () => {
  it('says how many requests, their range and their share of the all-tools baseline', () => {
    expect(chartSummary([1200, 2400], 18_433)).toBe(
      'Tool-schema tokens per model request: 2 model requests, from 1,200 to 2,400 tokens. Sending all tools would take 18,433 tokens per request; these requests used 7% to 13% of that.',
    );
  });

  it('handles one request, equal requests, no baseline and no requests', () => {
    expect(chartSummary([500], 1000)).toBe(
      'Tool-schema tokens per model request: 1 model request, 500 tokens each. Sending all tools would take 1,000 tokens per request; these requests used 50% of that.',
    );
    expect(chartSummary([500, 900], undefined)).toBe('Tool-schema tokens per model request: 2 model requests, from 500 to 900 tokens.');
    expect(chartSummary([], 1000)).toBe('Tool-schema tokens per model request: no model requests yet.');
  });
});
