// CPU profile of a window of this process (the in-process server of a bench), through the
// inspector: only what runs between start() and stop() is sampled, not start-up or the other
// targets of the run. Worker threads are not included (each has its own isolate).
import { Session } from 'node:inspector/promises';

export async function profileWindow<T>(run: () => Promise<T>, intervalUs = 200): Promise<{ result: T; profile: string }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
    await session.post('Profiler.start');
    const result = await run();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile: JSON.stringify(profile) };
  } finally {
    session.disconnect();
  }
}
