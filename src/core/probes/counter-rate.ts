// Per-second rates of SNMP counters from two readings. Counters are unsigned and wrap at their
// width, so a reading below the previous one is either a wrap (the counter passed its top and
// started again from zero) or a reset (the device restarted, the interface was re-created).
// Readings are bigints because a Counter64 exceeds a double's exact range: the difference of
// two large readings taken as doubles could be off by thousands.

export interface CounterReading {
  value: bigint;
  /** When it was read (ms). */
  at: number;
}

/** 32 (Counter32), 64 (Counter64), or undefined for a value that never wraps (a gauge). */
export type CounterWidth = 32 | 64 | undefined;

/**
 * The rate per second from `prev` to `next`, or undefined when none can be told: no previous
 * reading, no time passed (or the clock went back), or a reset. A wrap is believed only when
 * the increase it implies is under half the counter's range; a drop that would need a larger
 * increase is far likelier a reset to zero than a counter that ran through most of its range
 * between two polls.
 */
export function counterRate(prev: CounterReading | undefined, next: CounterReading, width: CounterWidth): number | undefined {
  if (!prev) return undefined;
  const ms = next.at - prev.at;
  if (!(ms > 0)) return undefined;
  let delta = next.value - prev.value;
  if (delta < 0n) {
    if (width === undefined) return undefined;
    const range = 1n << BigInt(width);
    // Readings outside the counter's range cannot be a wrap of it.
    if (prev.value >= range || next.value < 0n) return undefined;
    delta += range;
    if (delta >= range / 2n) return undefined;
  }
  return (Number(delta) * 1000) / ms;
}
