// The secrets module's rules on their own: URL masking and the round trip of masked triggers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MASK, maskUrl } from './mask.js';
import { MaskedSecretError, redactTriggers, restoreTriggerSecrets } from './trigger-secrets.js';

describe('maskUrl', () => {
  it('masks user info, every query value, a bare parameter and the fragment; keeps the rest', () => {
    assert.equal(maskUrl('https://u%40x:p@h.test:8443/a/b?key=s&k2=&flag#frag'), `https://${MASK}:${MASK}@h.test:8443/a/b?key=${MASK}&k2=${MASK}&${MASK}#${MASK}`);
    assert.equal(maskUrl('http://h.test/plain'), 'http://h.test/plain');
    assert.equal(maskUrl('http://user@h.test/'), `http://${MASK}@h.test/`);
    assert.equal(maskUrl('not a url'), MASK);
  });
  it('is stable: a masked URL masks to itself', () => {
    const once = maskUrl('http://a:b@h.test/x?k=v');
    assert.equal(maskUrl(once), once);
  });
});

describe('state-trigger secrets', () => {
  const stored = [
    { type: 'webhook', states: [5], duration: 0, payload: { url: 'http://a:b@h.test/x?k=v', method: 'POST', headers: { 'X-Key': 'secret' } } },
    { type: 'e-mail', states: [8], duration: 0, payload: { to: 'ops@h.test' } },
  ];
  const shown = redactTriggers(stored) as any[];

  it('shows recipients unchanged and webhooks masked', () => {
    assert.equal(shown[0].payload.url, `http://${MASK}:${MASK}@h.test/x?k=${MASK}`);
    assert.deepEqual(shown[0].payload.headers, { 'X-Key': MASK });
    assert.deepEqual(shown[1], stored[1]);
  });

  it('puts stored secrets back where the masked document comes back, also moved to another position', () => {
    assert.deepEqual(restoreTriggerSecrets(shown, stored), stored);
    assert.deepEqual(restoreTriggerSecrets([shown[1], shown[0]], stored), [stored[1], stored[0]]);
  });

  it('keeps new values sent in clear, and refuses a mask that would go elsewhere or has no stored value', () => {
    const fresh = structuredClone(shown);
    fresh[0].payload.headers = { 'X-Key': 'new' };
    assert.equal((restoreTriggerSecrets(fresh, stored)[0] as any).payload.headers['X-Key'], 'new');
    const moved = structuredClone(shown);
    moved[0].payload.url = moved[0].payload.url.replace('h.test', 'evil.test');
    assert.throws(() => restoreTriggerSecrets(moved, stored), MaskedSecretError);
    const partial = structuredClone(shown);
    partial[0].payload.url = `http://${MASK}:${MASK}@h.test/x?k=${MASK}&extra=1`;
    assert.throws(() => restoreTriggerSecrets(partial, stored), MaskedSecretError);
    const noSuchHeader = structuredClone(shown);
    noSuchHeader[0].payload.headers = { 'X-Other': MASK };
    assert.throws(() => restoreTriggerSecrets(noSuchHeader, stored), MaskedSecretError);
    assert.throws(() => restoreTriggerSecrets(shown, null), MaskedSecretError);
  });
});
