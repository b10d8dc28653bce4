import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counters, nextEvent, scene } from '../src/scene';
import { basic1Index, dirIndex, namRecords } from './fixtures';

/** The plain count from the nam text: packets waiting on from->to at t. */
function waiting(from: number, to: number, t: number): number {
  const records = namRecords().filter((x) => x.from === from && x.to === to && x.t <= t);
  const count = (kind: string) => records.filter((x) => x.kind === kind).length;
  // A drop at enqueue follows its '+': it leaves the queue at once.
  return count('+') - count('-') - count('d');
}

function inFlight(t: number): number[] {
  const records = namRecords();
  return records
    .filter((x) => x.kind === '-' && x.t <= t)
    .filter((x) => !records.some((y) => y.uid === x.uid && y.from === x.from && y.to === x.to && y.kind === 'r' && y.t <= t))
    .map((x) => x.uid)
    .sort((a, b) => a - b);
}

test('queues and packets in flight match the nam records at any time', () => {
  const { header, chunks } = basic1Index();
  for (const t of [0.05, 0.3, 0.4567, 0.575, 0.5862, 0.59]) {
    const s = scene(header, chunks[0], t);
    for (const [from, to] of [[0, 1], [1, 2], [2, 1], [1, 0]]) {
      assert.equal(s.queues[dirIndex(header, from, to)].length, waiting(from, to, t), `queue ${from}-${to} at ${t}`);
    }
    const uids = s.flights.map((f) => s.chunk.uid[f.row]).sort((a, b) => a - b);
    assert.deepEqual(uids, inFlight(t), `in flight at ${t}`);
  }
});

test('a packet in flight covers its bits: head by delay, tail a transmission time behind', () => {
  const { header, chunks } = basic1Index();
  // Data packet 28 (uid 43) leaves A at 0.57536: 1000 bytes on 10 Mb/s, 10 ms delay.
  const s = scene(header, chunks[0], 0.57536 + 0.005);
  const f = s.flights.find((x) => s.chunk.uid[x.row] === 43) as { head: number; tail: number };
  assert.ok(Math.abs(f.head - 0.5) < 1e-9);
  assert.ok(Math.abs(f.tail - (0.005 - 0.0008) / 0.01) < 1e-9);
});

test('a dropped packet falls for fall_s after its drop', () => {
  const { header, chunks } = basic1Index();
  const falling = (t: number) => scene(header, chunks[0], t).falls.map((f) => chunks[0].uid[f.row]);
  assert.deepEqual(falling(0.58615), []);
  assert.deepEqual(falling(0.58617), [43]);
  // The second drop (uid 45, at 0.59616) is still falling when the first has landed.
  assert.deepEqual(falling(0.58616 + header.fall_s + 1e-6), [45]);
  assert.deepEqual(falling(0.59616 + header.fall_s + 1e-6), []);
});

test('counters count the events up to a time', () => {
  const { header, chunks } = basic1Index();
  const d = dirIndex(header, 1, 2);
  const records = namRecords().filter((x) => x.from === 1 && x.to === 2 && x.t <= 0.59);
  const c = counters(chunks[0], d, 0.59);
  assert.deepEqual(
    [c.arrivals, c.departures, c.received, c.dropped],
    ['+', '-', 'r', 'd'].map((k) => records.filter((x) => x.kind === k).length),
  );
});

test('stepping finds the next and previous packet event', () => {
  const { chunks } = basic1Index();
  const times = [...new Set(namRecords().map((x) => x.t))].sort((a, b) => a - b);
  assert.equal(nextEvent(chunks[0], 0.3, true), times.find((t) => t > 0.3));
  assert.equal(nextEvent(chunks[0], 0.3, false), times.filter((t) => t < 0.3).pop());
});
