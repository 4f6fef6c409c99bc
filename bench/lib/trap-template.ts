// One v2c linkDown trap as net-snmp encodes it, for the trap benches to send many times with a
// sequence number written in place (no side effects on import: both a bench and its forked
// sender import it).
import { createSocket } from 'node:dgram';
import snmp from 'net-snmp';

/** The last binding's Integer 0x7f000000: where a trap's sequence number is written. */
const SEQ_MARK = Buffer.from([0x02, 0x04, 0x7f, 0x00, 0x00, 0x00]);

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
