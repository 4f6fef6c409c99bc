// The time range of the charts and the downsample that keeps a chart to a few hundred points.
export const PRESETS = [
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '6h', label: 'Last 6 hours', ms: 6 * 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 24 * 3_600_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 24 * 3_600_000 },
] as const;

export const DOWNSAMPLES = ['auto', 'none', '1m-avg', '5m-avg', '15m-avg', '1h-avg', '1h-max', '1d-avg'] as const;

/** Raw points up to an hour; above, buckets sized so a range stays near 360 points or fewer. */
export function autoDownsample(spanMs: number): string | undefined {
  const hour = 3_600_000;
  if (spanMs <= hour) return undefined;
  if (spanMs <= 6 * hour) return '1m-avg';
  if (spanMs <= 24 * hour) return '5m-avg';
  // Hour multiples are answered from the hourly rollups, so long ranges stay cheap.
  if (spanMs <= 31 * 24 * hour) return '1h-avg';
  return '1d-avg';
}

export function downsampleFor(choice: string, spanMs: number): string | undefined {
  if (choice === 'auto') return autoDownsample(spanMs);
  if (choice === 'none') return undefined;
  return choice;
}
