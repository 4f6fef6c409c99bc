// A paced SNMP trap sender for benches, run as a child process (fork this file): v2c linkDown
// traps, each numbered, sent round-robin from many loopback source addresses (127.0.x.y, which
// Linux routes to lo without configuration) so the server matches them to many objects by
// their `ip` property, and some to none. It keeps at most `window` traps in flight beyond what
// the parent says the server has handled, so the measure is the server's pace, not the kernel's
// drops; a full window that does not move for IDLE_MS is given up as lost.
import { createSocket, type Socket } from 'node:dgram';
import snmp from 'net-snmp';

export interface SenderStart { type: 'start'; port: number; count: number; window: number; template: string; seqAt: number; sources: string[] }
export type ToSender = SenderStart | { type: 'handled'; n: number };
export type FromSender = { type: 'ready' } | { type: 'done'; sent: number };

const IDLE_MS = 1_500;
const SEQ_MARK = Buffer.from([0x02, 0x04, 0x7f, 0x00, 0x00, 0x00]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One v2c linkDown trap as net-snmp encodes it, and where its sequence number goes. */
export async function trapTemplate(): Promise<{ template: Buffer; seqAt: number }> {
  const sink = createSocket('udp4');
  await new Promise<void>((r) => sink.bind(0, '127.0.0.1', r));
  const got = new Promise<Buffer>((r) => sink.once('message', (m) => r(m)));
  const session = snmp.createSession('127.0.0.1', 'public', { trapPort: sink.address().port, version: snmp.Version2c });
  const varbinds = [
    { oid: '1.3.6.1.2.1.2.2.1.1.2', type: snmp.ObjectType.Integer, value: 2 },
    { oid: '1.3.6.1.2.1.2.2.1.2.2', type: snmp.ObjectType.OctetString, value: 'GigabitEthernet0/2' },
    { oid: '1.3.6.1.2.1.2.2.1.8.2', type: snmp.ObjectType.Integer, value: 2 },
    { oid: '1.3.6.1.4.1.99999.1.0', type: snmp.ObjectType.Integer, value: 0x7f000000 },
  ];
  await new Promise<void>((resolve, reject) => session.trap('1.3.6.1.6.3.1.1.5.3', varbinds as never, (err: Error | null) => (err ? reject(err) : resolve())));
  const template = await got;
  session.close();
  sink.close();
  const seqAt = template.indexOf(SEQ_MARK);
  if (seqAt < 0) throw new Error('sequence binding not found in the encoded trap');
  return { template, seqAt };
}

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
