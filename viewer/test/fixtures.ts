// Shared test inputs: real ns-2 2.35 output (basic1.tcl's first 0.6 s,
// tests/fixtures/basic1-head.nam) and its index as the Rust core writes it
// (tests/fixtures/basic1-head.ackview; tests/test_view.py checks that it is
// current).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chunk, Header, decodeChunk, decodeHeader, readTrailer } from '../src/format';

const fixtures = join(process.cwd(), '..', 'tests', 'fixtures');

export interface NamRecord {
  kind: string;
  t: number;
  from: number;
  to: number;
  uid: number;
}

/** The packet records of the nam text, read the plain way. */
export function namRecords(): NamRecord[] {
  return readFileSync(join(fixtures, 'basic1-head.nam'), 'utf8')
    .split('\n')
    .filter((line) => /^[-+hrd] /.test(line))
    .map((line) => {
      const w = line.split(' ');
      const flag = (f: string) => w[w.indexOf(f) + 1];
      return { kind: w[0], t: Number(flag('-t')), from: Number(flag('-s')), to: Number(flag('-d')), uid: Number(flag('-i')) };
    });
}

export function basic1Index(): { header: Header; chunks: Chunk[]; bytes: ArrayBuffer } {
  const file = readFileSync(join(fixtures, 'basic1-head.ackview'));
  const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
  const { offset, length } = readTrailer(bytes.slice(bytes.byteLength - 24));
  const header = decodeHeader(bytes.slice(offset, offset + length));
  const chunks = header.chunks.offset.map((o, i) => decodeChunk(bytes.slice(o, o + header.chunks.length[i])));
  return { header, chunks, bytes };
}

export function dirIndex(header: Header, from: number, to: number): number {
  return header.dirs.findIndex((d) => d.from === from && d.to === to);
}
