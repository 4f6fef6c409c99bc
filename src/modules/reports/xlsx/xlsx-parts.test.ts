import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { columnName, sheetRange, xmlText } from './xml-text.js';
import { crc32, zip } from './zip.js';
import { dateSerial } from './workbook.js';
import { chartXml } from './chart-xml.js';

describe('xlsx parts', () => {
  it('names columns and ranges as spreadsheets do', () => {
    assert.deepEqual([1, 2, 26, 27, 52, 53, 702, 703].map(columnName), ['A', 'B', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    assert.equal(sheetRange('Data', 2, 2, 101), "'Data'!$B$2:$B$101");
    assert.equal(sheetRange("it's", 1, 2, 3), "'it''s'!$A$2:$A$3");
  });

  it('escapes XML text and drops what XML cannot carry', () => {
    assert.equal(xmlText(`a<b>&"c"'d'`), 'a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
    assert.equal(xmlText('x\u0000\u0007y\tz\uD800'), 'xy\tz');
    assert.equal(xmlText('😀 ok'), '😀 ok');
  });

  it('dates are serials of the 1900 system, in UTC', () => {
    assert.equal(dateSerial(Date.UTC(1970, 0, 1)), 25569);
    assert.equal(dateSerial(Date.UTC(2024, 0, 1, 12)), 45292.5);
  });

  it('the time axis is a text category axis, not an automatic date axis', () => {
    // With auto on, LibreOffice (and Excel) turn date categories into a date axis of whole
    // days: a day of minute points collapses onto one tick (seen rendered as a vertical line).
    const xml = chartXml({ title: 't', nameRef: "'Data'!$B$1", categoriesRef: "'Data'!$A$2:$A$3", valuesRef: "'Data'!$B$2:$B$3", index: 0 });
    const catAx = xml.slice(xml.indexOf('<c:catAx>'), xml.indexOf('</c:catAx>'));
    assert.match(catAx, /<c:auto val="0"\/>/);
    assert.doesNotMatch(xml, /<c:dateAx>/);
  });

  it('zips: CRC-32 as zlib computes it, entries readable back', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    const file = zip([['a.xml', '<a/>'], ['dir/b.txt', 'héllo']], Date.UTC(2024, 5, 1));
    assert.equal(file.readUInt32LE(0), 0x04034b50);
    assert.equal(file.readUInt32LE(file.length - 22), 0x06054b50);
    assert.equal(file.readUInt16LE(file.length - 12), 2, 'two entries');
    const nameLen = file.readUInt16LE(26);
    const size = file.readUInt32LE(18);
    assert.equal(file.subarray(30, 30 + nameLen).toString(), 'a.xml');
    assert.equal(inflateRawSync(file.subarray(30 + nameLen, 30 + nameLen + size)).toString(), '<a/>');
  });
});
