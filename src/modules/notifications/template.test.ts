import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonEscape, render, unknownPlaceholders } from './template.js';

describe('notification templates', () => {
  const fields = { 'entity.name': 'web-1', count: '3', 'incident.text': 'say "hi"\nnow' };
  it('fills known placeholders, with or without spaces, and drops unknown ones', () => {
    assert.equal(render('{{entity.name}} x{{ count }} [{{nope}}]', fields), 'web-1 x3 []');
  });
  it('does not interpret anything else: no code, no sections, no recursion', () => {
    assert.equal(render('{{#each x}}{{/each}} {{constructor}} {{__proto__}}', { x: '{{count}}' }), '{{#each x}}{{/each}}  {{__proto__}}', 'a name that is no field name is left as written');
    assert.equal(render('{{x}}', { x: '{{count}}', count: '9' }), '{{count}}', 'a value is never rendered again');
  });
  it('escapes values for a JSON string when asked', () => {
    const body = render('{"t":"{{incident.text}}"}', fields, jsonEscape);
    assert.deepEqual(JSON.parse(body), { t: 'say "hi"\nnow' });
  });
  it('bounds the output', () => {
    const out = render('{{v}}{{v}}{{v}}', { v: 'x'.repeat(100) }, undefined, 150);
    assert.equal(out.length, 150);
    assert.ok(out.endsWith('…'));
  });
  it('lists unknown placeholders once each', () => {
    assert.deepEqual(unknownPlaceholders('{{a}} {{b}} {{a}} {{count}}', new Set(['count'])), ['a', 'b']);
  });
});

describe('Telegram parse-mode escapes', () => {
  it('HTML escapes &, < and >; MarkdownV2 every reserved character', async () => {
    const { htmlEscape, markdownV2Escape } = await import('./template.js');
    assert.equal(htmlEscape('a<b> & c'), 'a&lt;b&gt; &amp; c');
    assert.equal(markdownV2Escape('web-1 (raised) 2026-12-01T10:00:00.000Z_x*y!'), 'web\\-1 \\(raised\\) 2026\\-12\\-01T10:00:00\\.000Z\\_x\\*y\\!');
    assert.equal(markdownV2Escape('[a](b) ~`>#+=|{}\\'), '\\[a\\]\\(b\\) \\~\\`\\>\\#\\+\\=\\|\\{\\}\\\\');
  });
});
