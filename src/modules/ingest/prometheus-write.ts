// Prometheus remote-write 1.0: a snappy block-compressed protobuf prometheus.WriteRequest,
// decoded (remote-write-proto.ts) and turned into named points (metric-name.ts) for the ingest
// service. The uncompressed size is read from the snappy header and refused past the limit
// before any byte is decompressed, so a small body cannot expand into a large allocation. Then
// the decompressed bytes are walked once without building anything (measureWriteRequest), and
// refused past the limits on series, labels and samples before protobufjs builds an object
// per message: snappy compresses repeated bytes about 21:1, so a body under 1 MiB could
// otherwise become millions of empty series (about 110 bytes of heap each), none with a sample.
import protobuf from 'protobufjs';
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

/** Labels one series may carry (Prometheus's own series have a few dozen at most); more is a 413. */
export const MAX_LABELS_PER_SERIES = 64;
/**
 * What a label counts against the request's label budget besides the bytes of its message (its
 * name and value): about the heap of the object decoding builds for it (an empty label, 2
 * bytes on the wire, takes ~35).
 */
export const LABEL_OVERHEAD_BYTES = 32;
/** The label budget of a request: its labels' bytes plus their overhead, at most this. */
const labelBudget = (limits: WriteLimits): number => 2 * limits.maxDecompressedBytes;

/** What a WriteRequest holds, counted without decoding it. */
export interface RequestSize {
  series: number;
  labels: number;
  samples: number;
}

const tooLarge = (message: string) => new AppError('PayloadTooLarge', `body: ${message}`);

/**
 * Counts the series, labels and samples of an encoded prometheus.WriteRequest, building no
 * object, and refuses it (413) as soon as it passes a limit: more series or samples than
 * maxSamples, more than MAX_LABELS_PER_SERIES labels in a series, or labels past the label
 * budget. It reads the fields as protobufjs's decoder does (a known field with another wire
 * type is skipped as unknown, and a message must end exactly at its length), so what decoding
 * builds afterwards is what was counted here. Malformed bytes throw protobufjs's error.
 */
export function measureWriteRequest(raw: Uint8Array, limits: WriteLimits): RequestSize {
  const reader = protobuf.Reader.create(raw);
  const budget = labelBudget(limits);
  const size: RequestSize = { series: 0, labels: 0, samples: 0 };
  let labelBytes = 0;
  while (reader.pos < reader.len) {
    const tag = reader.tag();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field !== 1 || wireType !== 2) {
      reader.skipType(wireType, 0, field);
      continue;
    }
    // timeseries = 1
    if (++size.series > limits.maxSamples) throw tooLarge(`more than ${limits.maxSamples} series (ingest.maxSamples)`);
    const end = seriesEnd(reader);
    let labels = 0;
    while (reader.pos < end) {
      const inner = reader.tag();
      const f = inner >>> 3;
      const w = inner & 7;
      if (w === 2 && (f === 1 || f === 2)) {
        const length = reader.size();
        if (reader.pos + length > end) throw new RangeError('index out of range');
        reader.skip(length);
        if (f === 1) {
          // labels = 1
          if (++labels > MAX_LABELS_PER_SERIES) throw tooLarge(`a series with more than ${MAX_LABELS_PER_SERIES} labels`);
          size.labels++;
          labelBytes += length + LABEL_OVERHEAD_BYTES;
          if (labelBytes > budget) {
            throw tooLarge(`labels past the label budget (${budget} bytes, twice ingest.maxDecompressedBytes, counting ${LABEL_OVERHEAD_BYTES} bytes a label besides its own)`);
          }
        } else if (++size.samples > limits.maxSamples) {
          // samples = 2
          throw tooLarge(`more than ${limits.maxSamples} samples (ingest.maxSamples)`);
        }
      } else {
        reader.skipType(w, 0, f);
      }
      if (reader.pos > end) throw new RangeError('index out of range');
    }
  }
  return size;
}

/** The end of the length-delimited message at the reader, checked against the buffer. */
function seriesEnd(reader: protobuf.Reader): number {
  const length = reader.size();
  const end = reader.pos + length;
  if (end > reader.len) throw new RangeError('index out of range');
  return end;
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
  const notWriteRequest = (err: unknown) => badRequest(`body: not a prometheus.WriteRequest (${(err as Error).message})`);
  try {
    measureWriteRequest(raw, limits);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw notWriteRequest(err);
  }
  try {
    const reader = protobuf.Reader.create(raw);
    // Unknown fields (metadata, exemplars, histograms) are skipped, not kept as buffers.
    reader.discardUnknown = true;
    return WriteRequest.decode(reader) as unknown as DecodedRequest;
  } catch (err) {
    throw notWriteRequest(err);
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
