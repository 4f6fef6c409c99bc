// The host:port a node announces in GET /cluster: where operators and the other nodes reach
// its HTTP listener. BASE_URL's when set (behind a proxy that is the public one), else the
// listening host, else (listening on every interface) the machine's name.
import { hostname } from 'node:os';

export function clusterAddress(host: string, baseUrl: string | undefined, port: number): string {
  if (baseUrl) {
    try {
      return new URL(baseUrl).host;
    } catch {
      // Not a URL: the listener's own address below.
    }
  }
  const shown = host === '0.0.0.0' || host === '::' ? hostname() : host;
  return `${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
