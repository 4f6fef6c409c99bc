// A throw-away self-signed certificate for localhost/127.0.0.1 from the openssl CLI, with a
// chosen lifetime so tests can check the days-to-expiry a probe reports.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function makeSelfSignedCert(days: number): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-cert-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    await run('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes',
      '-subj', '/CN=localhost',
      '-days', String(days),
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout', keyPath, '-out', certPath,
    ]);
    return { key: await readFile(keyPath, 'utf8'), cert: await readFile(certPath, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
