// A real SNMP agent on loopback for the SNMP probe's tests: Debian's snmpd (net-snmp) as a
// foreground child with its own config and persistent directory in a temporary folder, so the
// system's config and stored users are neither read nor written.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import snmp from 'net-snmp';
import { freeUdpPort } from './ports.js';
import { onFreePort, startUdpDaemon } from './udp-daemon.js';

export interface Snmpd {
  port: number;
  stop(): Promise<void>;
}

/** What the agent accepts (the tests use these). */
export const SNMPD = {
  community: 'public',
  user: { name: 'vigiluser', authProtocol: 'sha', authKey: 'authpass123', privProtocol: 'aes', privKey: 'privpass123' },
  sysContact: 'test@vigil',
  sysLocation: 'lab',
  /** Fixed values the agent serves (snmpd's `override`): a binary octet string, a negative integer, a Counter32. */
  binary: { oid: '1.3.6.1.4.1.99999.1.0', hex: '00ff10' },
  negative: { oid: '1.3.6.1.4.1.99999.2.0', value: -42 },
  counter: { oid: '1.3.6.1.4.1.99999.3.0', value: 100 },
} as const;

const SNMPD_BIN = '/usr/sbin/snmpd';

const CONFIG = `rocommunity ${SNMPD.community} 127.0.0.1
createUser ${SNMPD.user.name} SHA "${SNMPD.user.authKey}" AES "${SNMPD.user.privKey}"
rouser ${SNMPD.user.name} authpriv
sysContact ${SNMPD.sysContact}
sysLocation ${SNMPD.sysLocation}
override ${SNMPD.binary.oid} octet_str "0x${SNMPD.binary.hex}"
override ${SNMPD.negative.oid} integer ${SNMPD.negative.value}
override ${SNMPD.counter.oid} counter ${SNMPD.counter.value}
`;

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const session = snmp.createSession('127.0.0.1', SNMPD.community, { port, version: snmp.Version2c, timeout: 200, retries: 0 });
    session.on('error', () => {});
    session.get(['1.3.6.1.2.1.1.4.0'], (err) => {
      session.close();
      resolve(!err);
    });
  });
}

async function startOnce(dir: string): Promise<Snmpd | { failed: string }> {
  const port = await freeUdpPort();
  return startUdpDaemon(SNMPD_BIN, ['-f', '-Lo', '-C', '-c', join(dir, 'snmpd.conf'), `udp:127.0.0.1:${port}`], port, answers, {
    // usmUser entries derived from createUser are stored in the persistent directory; MIBS and
    // MIBDIRS stop it from loading (and complaining about) the system's MIB files.
    env: { ...process.env, SNMP_PERSISTENT_DIR: join(dir, 'persist'), MIBS: '', MIBDIRS: join(dir, 'no-mibs') },
  });
}

/** snmpd on udp 127.0.0.1:<port>, answering v1/v2c for SNMPD.community and v3 for SNMPD.user. */
export async function startSnmpd(): Promise<Snmpd> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-snmpd-'));
  try {
    await writeFile(join(dir, 'snmpd.conf'), CONFIG, { mode: 0o600 });
    const started = await onFreePort(() => startOnce(dir));
    return {
      port: started.port,
      stop: async () => {
        await started.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
