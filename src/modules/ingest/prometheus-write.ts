// Prometheus remote-write 1.0: a snappy block-compressed protobuf prometheus.WriteRequest,
// decoded (remote-write-proto.ts) and turned into named points (metric-name.ts) for the ingest
// service. The
// uncompressed size is read from the snappy header and refused past the limit before any
// byte is decompressed, so a small body cannot expand into a large allocation.
import { uncompressSync } from 'snappy';
import { AppError, badRequest } from '../../errors.js';
import type { IngestPoint } from './ingest-point.js';
import { dottedMetricName } from './metric-name.js';
import { WriteRequest } from './remote-write-proto.js';

interface Long { toNumber(): number }
interface DecodedRequest {
  timeseries: Array<{ labels: Array<{ name: string; value: string }>; samples: Array<{ value: number; timestamp: number | Long }> }>;
}

/** Why a sample was left out before it reached an entity. */
export type SampleSkip = 'noEntityLabel' | 'invalidName' | 'nonFinite' | 'stale';

export interface WriteLimits {
  maxDecompressedBytes: number;
  maxSamples: number;
}

/**
 * The uncompressed length a snappy block declares: its leading varint (at most 32 bits).
 * Undefined when the header is not a varint.
 */
export function snappyDeclaredLength(block: Uint8Array): number | undefined {
  let value = 0;
  for (let i = 0; i < 5 && i < block.length; i++) {
    const byte = block[i]!;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return value <= 0xffffffff ? value : undefined;
  }
  return undefined;
}

/** The body's protobuf, decompressed within the limit; 413 past it, 400 when not snappy/protobuf. */
export function decodeWriteRequest(body: Uint8Array, limits: WriteLimits): DecodedRequest {
  const declared = snappyDeclaredLength(body);
  if (declared === undefined) throw badRequest('body: not a snappy block (bad length header)');
  if (declared > limits.maxDecompressedBytes) {
    throw new AppError('PayloadTooLarge', `body: decompresses to ${declared} bytes, more than ingest.maxDecompressedBytes (${limits.maxDecompressedBytes})`);
  }
  let raw: Buffer;
  try {
    raw = uncompressSync(body, { asBuffer: true }) as Buffer;
  } catch (err) {
    throw badRequest(`body: not valid snappy (${(err as Error).message})`);
  }
  try {
    return WriteRequest.decode(raw) as unknown as DecodedRequest;
  } catch (err) {
    throw badRequest(`body: not a prometheus.WriteRequest (${(err as Error).message})`);
  }
}

// Prometheus's staleness marker: a NaN with this exact bit pattern (model/value.StaleNaN).
const STALE_HIGH = 0x7ff00000;
const STALE_LOW = 0x00000002;
const bits = new DataView(new ArrayBuffer(8));
function isStale(value: number): boolean {
  bits.setFloat64(0, value);
  return bits.getUint32(0) === STALE_HIGH && bits.getUint32(4) === STALE_LOW;
}

/**
 * The named points of a request, and a count of each reason a sample was left out. The entity
 * label, `job`, `instance` and internal `__` labels do not become part of the name.
 */
export function writeRequestPoints(request: DecodedRequest, entityLabel: string, maxSamples: number): { points: IngestPoint[]; samples: number; skipped: Record<SampleSkip, number> } {
  let samples = 0;
  for (const s of request.timeseries) samples += s.samples.length;
  if (samples > maxSamples) throw new AppError('PayloadTooLarge', `body: ${samples} samples, more than ingest.maxSamples (${maxSamples})`);
  const skipped: Record<SampleSkip, number> = { noEntityLabel: 0, invalidName: 0, nonFinite: 0, stale: 0 };
  const points: IngestPoint[] = [];
  const exclude = (name: string) => name === entityLabel || name === 'job' || name === 'instance' || name.startsWith('__');
  for (const series of request.timeseries) {
    const entity = series.labels.find((l) => l.name === entityLabel)?.value;
    if (!entity) {
      skipped.noEntityLabel += series.samples.length;
      continue;
    }
    const base = series.labels.find((l) => l.name === '__name__')?.value;
    const metric = base ? dottedMetricName(base, series.labels, exclude) : undefined;
    if (metric === undefined) {
      skipped.invalidName += series.samples.length;
      continue;
    }
    for (const sample of series.samples) {
      if (!Number.isFinite(sample.value)) {
        if (isStale(sample.value)) skipped.stale++;
        else skipped.nonFinite++;
        continue;
      }
      const ts = sample.timestamp;
      points.push({ entity, metric, timestamp: typeof ts === 'number' ? ts : ts.toNumber(), value: sample.value });
    }
  }
  return { points, samples, skipped };
}
