import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { lazyChildLogger } from './lazy-logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const logger = pino({ level: 'info', redact: ['password'] }, stream);
  return { logger: logger as unknown as FastifyBaseLogger, lines, base: logger };
}

test('no child is made until a line is logged; then the line carries the bindings, once made', () => {
  const { logger, lines, base } = capture();
  let made = 0;
  const child = base.child.bind(base);
  (base as unknown as { child: typeof child }).child = (...args) => (made++, child(...args));
  const log = lazyChildLogger(logger, { reqId: 'req-1' }, {});
  assert.equal(made, 0);
  assert.equal(log.level, 'info');
  log.info({ password: 'p', n: 1 }, 'first');
  log.error('second %s', 'line');
  log.debug('not at this level');
  assert.equal(made, 1);
  assert.equal(lines.length, 2);
  assert.equal(lines[0]!.reqId, 'req-1');
  assert.equal(lines[0]!.msg, 'first');
  assert.equal(lines[0]!.password, '[Redacted]');
  assert.equal(lines[1]!.msg, 'second line');
  assert.equal(lines[1]!.level, 50);
});

test('a level in the options applies to the child, and the child of a child keeps both bindings', () => {
  const { logger, lines } = capture();
  const log = lazyChildLogger(logger, { reqId: 'req-2' }, { level: 'warn' });
  assert.equal(log.level, 'warn');
  log.info('dropped');
  log.child({ part: 'x' }).warn('kept');
  assert.deepEqual(lines.map((l) => [l.msg, l.reqId, l.part]), [['kept', 'req-2', 'x']]);
});
