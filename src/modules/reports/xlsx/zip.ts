// The smallest ZIP writer an XLSX package needs: deflated entries, UTF-8 names, no ZIP64 (a
// report is bounded far below 4 GB). Deflate is node:zlib's native one, several times faster
// than a JavaScript deflate on the tens of MB of sheet XML a large report holds.
import { crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';

/** CRC-32 as ZIP needs it: zlib's own (native, Node 20.15+). */
export const crc32 = (data: Uint8Array): number => zlibCrc32(data);

/** MS-DOS date and time of `ms` (UTC), as ZIP headers carry them. */
function dosTime(ms: number): { time: number; date: number } {
  const d = new Date(ms);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((Math.max(1980, d.getUTCFullYear()) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

const MAX_32 = 0xffff_ffff;

/** A ZIP archive of `entries` (name → content), in the order given. */
export function zip(entries: ReadonlyArray<readonly [name: string, content: string | Uint8Array]>, modifiedAt: number, level = 6): Buffer {
  const { time, date } = dosTime(modifiedAt);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const raw = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const packed = deflateRawSync(raw, { level });
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(raw);
    if (raw.length > MAX_32 || offset + packed.length > MAX_32) throw new Error('zip: larger than 4 GB (no ZIP64 here)');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt16LE(time, 12);
    dir.writeUInt16LE(date, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(raw.length, 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    // extra, comment, disk, internal and external attributes: 0
    dir.writeUInt32LE(offset, 42);
    central.push(dir, nameBytes);
    parts.push(local, nameBytes, packed);
    offset += local.length + nameBytes.length + packed.length;
  }
  const dirSize = central.reduce((n, b) => n + b.length, 0);
  if (entries.length > 0xffff || offset + dirSize > MAX_32) throw new Error('zip: too many entries or too large (no ZIP64 here)');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}
