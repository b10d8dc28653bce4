import assert from 'node:assert/strict';
import { test } from 'node:test';
import { END_DROPPED, END_RECEIVED, chunkAt, decodeOverview } from '../src/format';
import { basic1Index, dirIndex, namRecords } from './fixtures';

test('the header keeps ns-2 basic1 topology, colours and queue position', () => {
  const { header } = basic1Index();
  assert.deepEqual(header.nodes.map((n) => n.id), [0, 1, 2]);
  assert.deepEqual(
    header.links.map((l) => [l.src, l.dst, l.bandwidth, l.delay, l.orient]),
    [
      [0, 1, 10_000_000, 0.01, 'right'],
      [1, 2, 800_000, 0.05, 'right'],
    ],
  );
  assert.equal(header.colors['0'], 'Red');
  assert.equal(header.dirs[dirIndex(header, 1, 2)].queue_pos, '0.5');
});

test('each hop decodes to the times of its nam records', () => {
  const { header, chunks } = basic1Index();
  const records = namRecords();
  let hops = 0;
  for (const c of chunks) {
    for (let r = c.snapshot; r < c.rows; r++) {
      hops++;
      const d = header.dirs[c.dir[r]];
      const mine = records.filter((x) => x.uid === c.uid[r] && x.from === d.from && x.to === d.to);
      assert.equal(c.tStart[r], mine[0].t);
      const dequeue = mine.find((x) => x.kind === '-');
      if (dequeue) assert.equal(c.tDeq[r], dequeue.t);
      else assert.ok(Number.isNaN(c.tDeq[r]));
      const last = mine[mine.length - 1];
      if (c.end[r] === END_RECEIVED) assert.deepEqual([last.kind, last.t], ['r', c.tEnd[r]]);
      if (c.end[r] === END_DROPPED) assert.deepEqual([last.kind, last.t], ['d', c.tEnd[r]]);
      assert.ok(c.size[r] === 40 || c.size[r] === 1000);
      assert.equal(header.flags[c.flags[r]], '-------');
    }
  }
  assert.equal(hops, records.filter((x) => x.kind === '+').length);
});

test('the overview columns decode to one value per bin', () => {
  const { header, bytes } = basic1Index();
  const o = header.overview;
  const columns = decodeOverview(bytes.slice(o.offset, o.offset + o.length), header);
  assert.equal(columns.size, o.columns.length);
  const drops = columns.get(`drops:${dirIndex(header, 1, 2)}`) as Float32Array;
  assert.equal(drops.length, o.bins);
  assert.equal(drops.reduce((a, b) => a + b, 0), 2);
});

test('a time maps to the last chunk starting at or before it', () => {
  const { header } = basic1Index();
  const h = { ...header, chunks: { ...header.chunks, t0: [0, 1, 2.5] } };
  assert.deepEqual([-1, 0, 0.5, 1, 2.4, 2.5, 99].map((t) => chunkAt(h, t)), [0, 0, 0, 1, 1, 2, 2]);
});
