// Debian's mosquitto as the external broker of a test: on `port` of loopback, anonymous, in
// memory only; ready once it accepts connections.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Mosquitto {
  proc: ChildProcess;
  stop(): void;
}

export async function startMosquitto(port: number): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  const proc = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  const stop = () => {
    proc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  const end = Date.now() + 5000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) return { proc, stop };
    if (Date.now() > end || proc.exitCode !== null) {
      stop();
      throw new Error(`mosquitto did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
