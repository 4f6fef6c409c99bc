// A paced SNMP trap sender for benches, run as a child process (fork this file): v2c linkDown
// traps, each numbered, sent round-robin from many loopback source addresses (127.0.x.y, which
// Linux routes to lo without configuration) so the server matches them to many objects by
// their `ip` property, and some to none. It keeps at most `window` traps in flight beyond what
// the parent says the server has handled, so the measure is the server's pace, not the kernel's
// drops; a full window that does not move for IDLE_MS is given up as lost.
import { createSocket, type Socket } from 'node:dgram';
export { trapTemplate } from './trap-template.js';

export interface SenderStart { type: 'start'; port: number; count: number; window: number; template: string; seqAt: number; sources: string[] }
export type ToSender = SenderStart | { type: 'handled'; n: number };
export type FromSender = { type: 'ready' } | { type: 'done'; sent: number };

const IDLE_MS = 1_500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runSender(): void {
  let handled = 0;
  let lostAssumed = 0;
  process.on('message', (m: ToSender) => {
    if (m.type === 'handled') handled = m.n;
    else void send(m);
  });
  process.send!({ type: 'ready' } satisfies FromSender);
  async function send(m: SenderStart): Promise<void> {
    const sockets: Socket[] = [];
    for (const address of m.sources) {
      const s = createSocket('udp4');
      await new Promise<void>((r) => s.bind(0, address, r));
      await new Promise<void>((r) => s.connect(m.port, '127.0.0.1', r));
      sockets.push(s);
    }
    const template = Buffer.from(m.template, 'base64');
    let sent = 0;
    let lastProgress = Date.now();
    let lastHandled = 0;
    while (sent < m.count) {
      if (handled !== lastHandled) (lastHandled = handled), (lastProgress = Date.now());
      const room = Math.min(m.count - sent, handled + lostAssumed + m.window - sent, 256);
      if (room <= 0) {
        if (Date.now() - lastProgress > IDLE_MS) (lostAssumed = sent - handled), (lastProgress = Date.now());
        await sleep(1);
        continue;
      }
      const batch: Array<Promise<void>> = [];
      for (let i = 0; i < room; i++) {
        const datagram = Buffer.from(template);
        datagram.writeUIntBE((sent + i) & 0xffffff, m.seqAt + 3, 3);
        const socket = sockets[(sent + i) % sockets.length]!;
        batch.push(new Promise<void>((r) => socket.send(datagram, () => r())));
      }
      sent += room;
      await Promise.all(batch);
    }
    for (const s of sockets) s.close();
    process.send!({ type: 'done', sent } satisfies FromSender);
  }
}

if (process.argv[2] === 'sender') runSender();
