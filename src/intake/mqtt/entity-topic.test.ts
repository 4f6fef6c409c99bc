import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entityTopic } from './entity-topic.js';

describe('entityTopic', () => {
  it('names an object or a link by its id, and marks exactly <prefix>/<id>/stat', () => {
    assert.deepEqual(entityTopic('objects/12/stat'), { entityType: 1, id: '12', isStat: true });
    assert.deepEqual(entityTopic('links/7/stat'), { entityType: 2, id: '7', isStat: true });
    assert.deepEqual(entityTopic('objects/12/status'), { entityType: 1, id: '12', isStat: false });
    assert.deepEqual(entityTopic('objects/12'), { entityType: 1, id: '12', isStat: false });
    assert.deepEqual(entityTopic('objects/12/stat/more'), { entityType: 1, id: '12', isStat: false });
    assert.deepEqual(entityTopic('objects/12/'), { entityType: 1, id: '12', isStat: false });
  });

  it('names nothing for other topics, non-numeric ids and inherited property names', () => {
    for (const t of ['', 'objects', 'objects/', 'objects//stat', 'objects/abc/stat', 'objects/+/stat', 'entities/1/stat',
      'Objects/1/stat', 'sensors/1/stat', 'constructor/1/stat', '__proto__/1/stat', 'toString/1', `objects/${'9'.repeat(33)}/stat`]) {
      assert.equal(entityTopic(t), undefined, t);
    }
  });
});
