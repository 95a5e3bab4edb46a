import { useEffect, useRef, useState } from 'preact/hooks';
import { chartSummary, DEFAULT_BOX, formatCount, layoutChart, percentOf, shortNumber, type ChartBox } from './chart-scale';

export interface ChartRequest {
  readonly number: number;
  readonly schemaTokens: number;
  readonly toolCount: number;
  readonly model: string;
}

const HEIGHT = 240;

/**
 * Tool-schema tokens per model request as bars, with what sending every tool would cost as a
 * labelled line, so the saving of loading groups on demand is visible at a glance. The SVG is
 * one image for assistive technology (its aria-label says the same in words); the table under it
 * holds the exact numbers.
 */
export function TokenChart({ requests, baseline, baselineFormat }: { requests: readonly ChartRequest[]; baseline?: number; baselineFormat?: string }) {
  const { ref, width } = useContainerWidth();
  const box: ChartBox = { ...DEFAULT_BOX, width: Math.max(280, width ?? DEFAULT_BOX.width), height: HEIGHT };
  const values = requests.map((r) => r.schemaTokens);
  const layout = layoutChart(values, baseline, box);
  const summary = chartSummary(values, baseline);

  return (
    <figure class="token-chart">
      <div class="token-chart__frame" ref={ref}>
        <svg
          class="token-chart__svg"
          role="img"
          aria-label={summary}
          viewBox={`0 0 ${box.width} ${box.height}`}
          width="100%"
          height={box.height}
          preserveAspectRatio="xMidYMid meet"
          data-testid="token-chart"
        >
          {layout.ticks.map((tick) => (
            <g key={tick.value} class="token-chart__tick">
              <line x1={layout.plot.left} x2={layout.plot.right} y1={tick.y} y2={tick.y} />
              <text x={layout.plot.left - 6} y={tick.y} dy="0.32em" text-anchor="end">
                {shortNumber(tick.value)}
              </text>
            </g>
          ))}
          {layout.bars.map((bar) => {
            const request = requests[bar.index]!;
            return (
              <g key={request.number} class="token-chart__bar">
                <rect x={bar.x} y={bar.y} width={bar.width} height={Math.max(bar.height, bar.value > 0 ? 1 : 0)} rx="3" data-request={request.number} data-tokens={bar.value}>
                  <title>{`Request #${request.number}: ${formatCount(bar.value)} tokens`}</title>
                </rect>
                {layout.valueLabels && (
                  <text class="token-chart__value" x={bar.centerX} y={bar.y - 4} text-anchor="middle">
                    {shortNumber(bar.value)}
                  </text>
                )}
                {bar.labelled && (
                  <text x={bar.centerX} y={layout.plot.bottom + 18} text-anchor="middle">
                    {`#${request.number}`}
                  </text>
                )}
              </g>
            );
          })}
          {layout.baseline && (
            <g class="token-chart__baseline">
              <line x1={layout.plot.left} x2={layout.plot.right} y1={layout.baseline.y} y2={layout.baseline.y} data-tokens={layout.baseline.value} />
              <text x={layout.plot.right} y={layout.baseline.y - 6} text-anchor="end">
                {`All tools: ${formatCount(layout.baseline.value)} tokens`}
              </text>
            </g>
          )}
          <line class="token-chart__axis" x1={layout.plot.left} x2={layout.plot.right} y1={layout.plot.bottom} y2={layout.plot.bottom} />
        </svg>
      </div>
      <figcaption class="muted">
        Bars: tool-schema tokens sent with each model request.{' '}
        {baseline !== undefined ? (
          <>
            Line: all {baselineFormat ? `${baselineFormat} ` : ''}tool schemas ({formatCount(baseline)} tokens), what every request would carry without tool groups.
          </>
        ) : (
          'The all-tools baseline is not available from this server.'
        )}
      </figcaption>
      <div class="table-scroll" tabIndex={0}>
        <table class="token-table">
          <caption>Tool-schema tokens per model request</caption>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Model</th>
              <th scope="col">Tools sent</th>
              <th scope="col">Schema tokens</th>
              <th scope="col">Share of all tools</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((request) => {
              const share = percentOf(request.schemaTokens, baseline);
              return (
                <tr key={request.number}>
                  <th scope="row">#{request.number}</th>
                  <td>{request.model}</td>
                  <td class="num">{request.toolCount}</td>
                  <td class="num">{formatCount(request.schemaTokens)}</td>
                  <td class="num">{share === undefined ? 'unknown' : `${share}%`}</td>
                </tr>
              );
            })}
          </tbody>
          {baseline !== undefined && (
            <tfoot>
              <tr>
                <th scope="row">All tools</th>
                <td>every tool sent</td>
                <td class="num" />
                <td class="num">{formatCount(baseline)}</td>
                <td class="num">100%</td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </figure>
  );
}

/**
 * The chart's own width in CSS pixels, so its viewBox matches the screen one to one and its
 * labels stay readable on a 390 px phone instead of shrinking with a fixed viewBox.
 */
function useContainerWidth(): { ref: { current: HTMLDivElement | null }; width: number | undefined } {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(Math.round(element.clientWidth));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(Math.round(element.clientWidth)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
