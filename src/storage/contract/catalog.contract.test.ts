// Catalog store contract: the seeded catalog, batches stored whole or not at all (also when
// large, and without losing other writes made meanwhile), cascades on delete, bulk jobs.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DuplicateKeyError } from '../types.js';
import { forEachBackend } from './backends.js';
import { newUser } from './fixtures.js';

forEachBackend('catalog store', (storage) => {
  it('catalog: seeded root, classes and states; a batch is stored whole and loads back', async () => {
    const cat = storage().catalog;
    const first = await cat.load();
    assert.deepEqual(first.objects.map((o) => [o.id, o.name, o.parent_id]), [['1', 'root', []]]);
    assert.deepEqual(first.states.map((st) => st.id), [1, 3, 4, 5, 6, 7, 8, 9]);
    assert.ok(first.classes.length >= 4);
    const obj = (id: string, parents: string[], tags: string[] = []) => ({
      id, name: `o${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: parents, tags, created: 1, updated: 1,
    });
    await cat.apply([
      { op: 'putTag', row: { id: '1', name: 'prod', created: 1, updated: 1 } },
      { op: 'putObject', row: obj('2', ['1'], ['1']) },
      { op: 'putObject', row: obj('3', ['2', '1']) },
      { op: 'putLink', row: { id: '4', name: 'l', source: '2', target: '3', class_id: null, state_id: 1, owner_id: '1', client_data: '{}', tags: ['1'], operations: [], created: 1, updated: 1 } },
      { op: 'putProp', row: { id: '1', entity_id: '3', name: 'ip', value: '10.0.0.1', type_id: 3, created: 1, updated: 1 } },
      { op: 'putSetting', row: { entity_id: '3', kind: 'stateConditions', value: [{ condition: {}, state: 3, description: '' }], updated: 1 } },
      { op: 'audit', record: { timestamp: 5, userId: '1', action: 'create', resource: 'object', resourceId: '3', entityId: '3', before: null, after: { a: 1 } } },
    ]);
    const snap = await cat.load();
    assert.deepEqual(snap.objects.find((o) => o.id === '3')!.parent_id, ['2', '1'], 'parent order kept');
    assert.deepEqual(snap.objects.find((o) => o.id === '2')!.tags, ['1']);
    assert.deepEqual(snap.links.map((l) => [l.id, l.source, l.target, l.tags]), [['4', '2', '3', ['1']]]);
    assert.equal(snap.props[0]!.value, '10.0.0.1');
    assert.deepEqual(snap.settings[0]!.value, [{ condition: {}, state: 3, description: '' }]);
    assert.equal(snap.lastIds.entities, 4);
    const audit = await cat.audit({ entityId: '3', limit: 10, skip: 0 });
    assert.deepEqual(audit.map((a) => [a.action, a.after]), [['create', { a: 1 }]]);

    // A failing write rolls the whole batch back.
    await assert.rejects(cat.apply([
      { op: 'putObject', row: { ...obj('2', ['1']), name: 'renamed' } },
      { op: 'putTag', row: { id: '2', name: 'prod', created: 1, updated: 1 } },
    ]), DuplicateKeyError);
    assert.equal((await cat.load()).objects.find((o) => o.id === '2')!.name, 'o2');

    // Deleting cascades to parent edges, tags, props and settings; deleting a tag unlinks it.
    await cat.apply([{ op: 'deleteTag', id: '1' }, { op: 'deleteEntities', ids: ['4', '3'] }]);
    const after = await cat.load();
    assert.deepEqual(after.objects.map((o) => o.id), ['1', '2']);
    assert.deepEqual(after.objects[1]!.tags, []);
    assert.deepEqual([after.links.length, after.props.length, after.settings.length], [0, 0, 0]);
    assert.equal(after.lastIds.entities, 4, 'ids are not given out again');
  });

  it('catalog: writes that touch one row apply in the batch\'s order, however the kinds interleave', async () => {
    const cat = storage().catalog;
    const obj = (id: string, name: string, state = 1) => ({
      id, name, class_id: null, state_id: state, owner_id: '1', client_data: '', discovery_id: null, parent_id: ['1'], tags: [], created: 1, updated: 1,
    });
    const prop = (id: string, entity: string, name: string, value: string) =>
      ({ op: 'putProp' as const, row: { id, entity_id: entity, name, value, type_id: 3, created: 1, updated: 1 } });
    const audit = (n: number) => ({ op: 'audit' as const, record: { timestamp: 7000 + n, userId: 'order', action: 'update' as const, resource: 'object' as const, resourceId: String(n), entityId: null, before: null, after: { n } } });
    const states = (id: string, stateId: number) => ({ op: 'setStates' as const, changes: [{ entityId: id, stateId, previousStateId: 1, timestamp: 1, reason: { code: 1 } }], own: [] });
    await cat.apply([
      { op: 'putObject', row: obj('7001', 'first') }, prop('7001', '7001', 'ip', 'a'), audit(1),
      states('7001', 5), { op: 'putObject', row: obj('7001', 'second', 3) }, audit(2), // the put after the state change wins
      { op: 'putObject', row: obj('7002', 'gone') }, prop('7002', '7002', 'ip', 'x'), { op: 'deleteEntities', ids: ['7002'] }, audit(3),
      { op: 'putObject', row: obj('7002', 'back') }, // deleted, then stored again: no property left
      prop('7001', '7001', 'ip', 'b'), { op: 'deleteProp', id: '7001', entityId: '7001' }, prop('7003', '7001', 'ip', 'c'), audit(4),
      { op: 'putSetting', row: { entity_id: '7001', kind: 'statRules', value: [1], updated: 1 } }, { op: 'deleteSetting', entityId: '7001', kind: 'statRules' },
      { op: 'putObject', row: obj('7004', 'later') }, states('7004', 8), { op: 'putObject', row: obj('7004', 'later', 4) }, states('7004', 9),
    ]);
    const snap = await cat.load();
    const byId = (id: string) => snap.objects.find((o) => o.id === id);
    assert.deepEqual([byId('7001')?.name, byId('7001')?.state_id], ['second', 3]);
    assert.deepEqual([byId('7002')?.name, byId('7004')?.state_id], ['back', 9]);
    assert.deepEqual(snap.props.filter((p) => ['7001', '7002'].includes(p.entity_id)).map((p) => [p.id, p.value]), [['7003', 'c']]);
    assert.equal(snap.settings.filter((st) => st.entity_id === '7001').length, 0, 'the setting put then deleted is gone');
    assert.deepEqual((await cat.audit({ userId: 'order', limit: 10, skip: 0 })).map((a) => a.after), [{ n: 4 }, { n: 3 }, { n: 2 }, { n: 1 }]);
    assert.deepEqual((await cat.stateHistory({ entityId: '7004', limit: 10, skip: 0 })).map((h) => h.stateId), [9, 8], 'history in order (ties by id)');
  });

  it('catalog: bulk jobs are kept, and ones a stop cut short are closed', async () => {
    const cat = storage().catalog;
    await cat.putBulkJob({ bulkId: 'b1', userId: '1', created: 1, finished: false, matched: 5, changed: 0, errors: [] });
    await cat.putBulkJob({ bulkId: 'b2', userId: '1', created: 1, finished: true, matched: 2, changed: 2, errors: [] });
    assert.equal(await cat.abandonBulkJobs('stopped'), 1);
    assert.deepEqual(await cat.getBulkJob('b1'), { bulkId: 'b1', userId: '1', created: 1, finished: true, matched: 5, changed: 0, errors: ['stopped'] });
    assert.equal((await cat.getBulkJob('b2'))!.changed, 2);
    assert.equal(await cat.getBulkJob('nope'), undefined);
  });

  it('catalog: a large batch is all or nothing, and writes made meanwhile survive its failure', async () => {
    const cat = storage().catalog;
    const row = (id: number) => ({
      id: String(1000 + id), name: `big${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null,
      parent_id: ['1'], tags: [], created: 1, updated: 1,
    });
    const big = Array.from({ length: 5000 }, (_, i) => ({ op: 'putObject' as const, row: row(i) }));
    // The last write breaks a unique key, after thousands of good ones.
    const failing = [...big, { op: 'putTag' as const, row: { id: '900', name: 'dup', created: 1, updated: 1 } }, { op: 'putTag' as const, row: { id: '901', name: 'dup', created: 1, updated: 1 } }];
    const during = storage().users.create(newUser('during-batch'), 1);
    const results = await Promise.allSettled([cat.apply(failing), during]);
    assert.equal(results[0].status, 'rejected');
    assert.ok((results[0] as PromiseRejectedResult).reason instanceof DuplicateKeyError);
    assert.equal(results[1].status, 'fulfilled', 'the write made meanwhile is stored');
    assert.ok(await storage().users.getByLogin('during-batch'));
    const snap = await cat.load();
    assert.equal(snap.objects.filter((o) => o.name.startsWith('big')).length, 0, 'none of the failed batch is stored');
    await cat.apply(big);
    assert.equal((await cat.load()).objects.filter((o) => o.name.startsWith('big')).length, 5000);
  });

  it('catalog: class templates (documents and properties) are stored, load back, and go with their class', async () => {
    const cat = storage().catalog;
    const cls = { id: '8101', name: 'templated', description: '', icon: '', builtIn: false, created: 1, updated: 1 };
    const prop = (id: string, name: string, value: string) => ({ id, class_id: '8101', name, value, type_id: 3, created: 1, updated: 2 });
    const claims = [{ space: 'props' as const, after: (await cat.lastIds()).props, last: 8202 }];
    await cat.apply([
      { op: 'putClass', row: cls },
      { op: 'putClassSetting', row: { class_id: '8101', kind: 'stateConditions', value: [{ condition: { a: { _gt: 1 } }, state: 5, description: 'x' }], updated: 3 } },
      { op: 'putClassSetting', row: { class_id: '8101', kind: 'incidentConditions', value: [{ id: '1' }], updated: 3 } },
      { op: 'putClassProp', row: prop('8202', 'team', 'ops') },
      { op: 'putClassProp', row: prop('8201', 'host', 'h1') },
      { op: 'putClassProp', row: prop('8201', 'host', 'h2') },
    ], claims);
    let snap = await cat.load();
    assert.deepEqual(snap.classSettings.filter((s) => s.class_id === '8101').map((s) => [s.kind, s.value]), [
      ['incidentConditions', [{ id: '1' }]], ['stateConditions', [{ condition: { a: { _gt: 1 } }, state: 5, description: 'x' }]],
    ], 'ordered by class, then kind');
    assert.deepEqual(snap.classProps.filter((p) => p.class_id === '8101'), [prop('8201', 'host', 'h2'), prop('8202', 'team', 'ops')]);
    assert.ok(snap.lastIds.props >= 8202, 'class property ids move the properties\' counter');

    // One name per class.
    await assert.rejects(cat.apply([{ op: 'putClassProp', row: prop('8203', 'team', 'dev') }]), DuplicateKeyError);

    await cat.apply([{ op: 'deleteClassSetting', classId: '8101', kind: 'incidentConditions' }, { op: 'deleteClassProp', id: '8202', classId: '8101' }]);
    snap = await cat.load();
    assert.deepEqual(snap.classSettings.filter((s) => s.class_id === '8101').map((s) => s.kind), ['stateConditions']);
    assert.deepEqual(snap.classProps.filter((p) => p.class_id === '8101').map((p) => p.id), ['8201']);

    // Deleting the class deletes its templates.
    await cat.apply([{ op: 'deleteClass', id: '8101' }]);
    snap = await cat.load();
    assert.equal(snap.classSettings.filter((s) => s.class_id === '8101').length, 0);
    assert.equal(snap.classProps.filter((p) => p.class_id === '8101').length, 0);
  });
});
