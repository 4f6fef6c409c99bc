import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MASK } from '../../core/secrets/mask.js';
import { channelTarget, maskChannelSettings, restoreChannelSecrets } from './channel-secrets.js';

describe('channel secrets', () => {
  const hook = { url: 'https://u:p@hooks.test/x?key=s', headers: { Authorization: 'Bearer t', 'X-Team': 'ops' } };

  it('masks tokens and hook URLs whole, URLs by part, header values', () => {
    assert.deepEqual(maskChannelSettings('telegram', { botToken: '1:abc', chatId: '5' }), { botToken: MASK, chatId: '5' });
    assert.deepEqual(maskChannelSettings('slack', { webhookUrl: 'https://hooks.slack.com/services/T/B/X' }), { webhookUrl: MASK });
    assert.deepEqual(maskChannelSettings('webhook', hook), { url: `https://${MASK}:${MASK}@hooks.test/x?key=${MASK}`, headers: { Authorization: MASK, 'X-Team': MASK } });
    assert.deepEqual(maskChannelSettings('e-mail', { to: ['a@b.c'] }), { to: ['a@b.c'] });
  });

  it('what was shown, sent back, is the stored value again', () => {
    for (const [type, stored] of [['webhook', hook], ['telegram', { botToken: '1:abc', chatId: '5' }], ['teams', { webhookUrl: 'https://x.test/a/b' }]] as const) {
      assert.deepEqual(restoreChannelSecrets(type, maskChannelSettings(type, stored), stored), stored);
    }
  });

  it('a new value replaces the stored one; a header named differently in case still finds it', () => {
    assert.deepEqual(restoreChannelSecrets('webhook', { url: 'https://new.test/', headers: { authorization: MASK } }, hook), { url: 'https://new.test/', headers: { authorization: 'Bearer t' } });
  });

  it('a mask with nothing stored behind it, or on a URL pointed elsewhere, is refused', () => {
    assert.throws(() => restoreChannelSecrets('telegram', { botToken: MASK, chatId: '5' }, undefined), /botToken/);
    assert.throws(() => restoreChannelSecrets('webhook', { url: `https://${MASK}@evil.test/x` }, hook), /url/);
    assert.throws(() => restoreChannelSecrets('webhook', { url: 'https://hooks.test/', headers: { 'X-New': MASK } }, hook), /X-New/);
    assert.throws(() => restoreChannelSecrets('slack', { webhookUrl: `https://hooks.test/${MASK}` }, { webhookUrl: 'https://hooks.test/a' }), /webhookUrl/);
  });

  it('targets in the runs log carry no secret', () => {
    assert.equal(channelTarget('telegram', { botToken: '1:abc', chatId: '5' }), 'telegram chat 5');
    assert.equal(channelTarget('slack', { webhookUrl: 'https://hooks.slack.com/services/T/B/X' }), `https://hooks.slack.com/${MASK}`);
    assert.equal(channelTarget('http', { url: 'https://u:p@h.test/x?k=v' }), `https://${MASK}:${MASK}@h.test/x?k=${MASK}`);
  });
});
