import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogThrottle } from './log-throttle.js';

describe('createLogThrottle', () => {
  it('logs a kind at most once per interval and then tells how many it left out', () => {
    const lines: Array<[Record<string, unknown>, string]> = [];
    let t = 1_000;
    const log = createLogThrottle({ warn: (fields: Record<string, unknown>, msg: string) => void lines.push([fields, msg]) } as never, 10_000, () => t);
    log('malformed', { from: 'a' }, 'bad packet');
    log('malformed', { from: 'b' }, 'bad packet');
    log('badCommunity', { from: 'c' }, 'wrong community');
    t += 9_999;
    log('malformed', { from: 'd' }, 'bad packet');
    assert.deepEqual(lines, [
      [{ from: 'a', kind: 'malformed' }, 'bad packet'],
      [{ from: 'c', kind: 'badCommunity' }, 'wrong community'],
    ]);
    t += 1;
    log('malformed', { from: 'e' }, 'bad packet');
    assert.deepEqual(lines[2], [{ from: 'e', kind: 'malformed', notLogged: 2 }, 'bad packet']);
    t += 10_000;
    log('malformed', { from: 'f' }, 'bad packet');
    assert.deepEqual(lines[3], [{ from: 'f', kind: 'malformed' }, 'bad packet']);
  });
});
