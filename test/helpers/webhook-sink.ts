// A local HTTP server that receives webhooks: it keeps every request, answers as the test
// scripts it, and lets a test wait until a number of requests have arrived.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON (the raw text when it is not JSON). */
  body: any;
}

/** What to answer to the n-th request (from 1) on a path; 'hang' never answers. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';
export type Script = (n: number, req: Received) => Answer;

export interface WebhookSink {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests received, per path, in order. */
  received(path: string): Received[];
  /** Sets how a path answers (200 by default). */
  script(path: string, script: Script): void;
  /** Resolves with the path's requests once there are at least `count` (rejects after `withinMs`). */
  waitFor(path: string, count: number, withinMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startWebhookSink(): Promise<WebhookSink> {
  const byPath = new Map<string, Received[]>();
  const scripts = new Map<string, Script>();
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const got: Received = { method: req.method ?? '', path, headers: req.headers, body };
      const list = byPath.get(path) ?? [];
      list.push(got);
      byPath.set(path, list);
      for (const wake of waiters) wake();
      const answer: Answer = (scripts.get(path) ?? (() => ({ status: 200 })))(list.length, got);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: (path) => [...(byPath.get(path) ?? [])],
    script: (path, script) => void scripts.set(path, script),
    waitFor(path, count, withinMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const list = byPath.get(path) ?? [];
          if (list.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve([...list]);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`webhook sink: ${byPath.get(path)?.length ?? 0} of ${count} requests on ${path} within ${withinMs} ms`));
        }, withinMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
