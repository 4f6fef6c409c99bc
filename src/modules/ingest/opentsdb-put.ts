// OpenTSDB's /api/put body: one data point `{metric, timestamp, value, tags}` or an array of
// them, read as OpenTSDB reads it: timestamp in seconds, or in milliseconds when it exceeds
// 10^10 (13 digits); value a number or a numeric string; tags a flat object of strings. The
// entity comes from one tag; the metric name is as given (already dotted) with the other tags
// appended by metric-name.ts. Each point is judged alone: OpenTSDB stores the good points of
// a put and reports the others.
import { AppError, badRequest } from '../../errors.js';
import type { IngestPoint } from './ingest-point.js';
import { dottedMetricName } from './metric-name.js';

/** A point judged bad, with OpenTSDB's `{datapoint, error}` shape in mind. */
export interface PointError {
  index: number;
  error: string;
}

const SECONDS_LIMIT = 10_000_000_000;
// What JSON.parse takes as a number, without hex, Infinity or blanks that Number() allows.
const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The good points of a body (with their index in it) and why each other one was refused. */
export function putPoints(body: unknown, entityTag: string, maxPoints: number): { raw: unknown[]; points: Array<IngestPoint & { index: number }>; errors: PointError[] } {
  const raw = Array.isArray(body) ? body : [body];
  if (raw.length === 0) throw badRequest('body: no data points');
  if (raw.length > maxPoints) throw new AppError('PayloadTooLarge', `body: ${raw.length} data points, more than ingest.maxSamples (${maxPoints})`);
  const points: Array<IngestPoint & { index: number }> = [];
  const errors: PointError[] = [];
  raw.forEach((dp, index) => {
    const judged = point(dp, entityTag);
    if (typeof judged === 'string') errors.push({ index, error: judged });
    else points.push({ ...judged, index });
  });
  return { raw, points, errors };
}

/** One data point, or why it cannot be taken (OpenTSDB-like wording). */
function point(dp: unknown, entityTag: string): IngestPoint | string {
  if (typeof dp !== 'object' || dp === null || Array.isArray(dp)) return 'Data point is not an object';
  const { metric, timestamp, value, tags } = dp as Record<string, unknown>;
  if (typeof metric !== 'string' || metric === '') return 'Metric name was empty';
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp <= 0) return 'Invalid timestamp: expected whole seconds or milliseconds since 1970';
  let v: number;
  if (typeof value === 'number') v = value;
  else if (typeof value === 'string' && NUMERIC.test(value)) v = Number(value);
  else return 'Unable to parse value to a number';
  if (!Number.isFinite(v)) return 'Unable to parse value to a number';
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) return 'Missing tags';
  const labels: Array<{ name: string; value: string }> = [];
  for (const [name, tagValue] of Object.entries(tags)) {
    if (typeof tagValue !== 'string' || tagValue === '') return `Invalid tag value for ${JSON.stringify(name.slice(0, 80))}: expected a non-empty string`;
    labels.push({ name, value: tagValue });
  }
  const entity = labels.find((l) => l.name === entityTag)?.value;
  if (entity === undefined) return `Missing tag ${JSON.stringify(entityTag)} naming the entity`;
  const name = dottedMetricName(metric, labels, (n) => n === entityTag);
  if (name === undefined) return 'Invalid metric name: empty or forbidden segment, a comma, or longer than 200 characters';
  return { entity, metric: name, timestamp: timestamp > SECONDS_LIMIT ? timestamp : timestamp * 1000, value: v };
}
