// The side panels' numbers over a time window: exact, from the chunks that
// cover a short window; from the whole-run overview bins otherwise.

import { Chunk, END_DROPPED, END_RECEIVED, Header } from './format';
import { BandSeries } from './plots';
import { scene } from './scene';

/** A variable's changes within [from, to], with its value at `from` first. */
export function variableSteps(chunks: Chunk[], series: number, from: number, to: number): [number, number][] {
  const steps: [number, number][] = [];
  let before: number | null = null;
  for (const c of chunks) {
    for (let i = 0; i < c.varT.length; i++) {
      if (c.varSeries[i] !== series) continue;
      const t = c.varT[i];
      // Each chunk repeats the values at its start (times before t0): skip those after the first chunk.
      if (t < c.t0 && c !== chunks[0]) continue;
      if (t <= from) before = c.varV[i];
      else if (t <= to) steps.push([t, c.varV[i]]);
    }
  }
  return before === null ? steps : [[from, before], ...steps];
}

/** A direction's queue length (packets waiting) within [from, to]: its
 * level at `from`, then each change. `chunks` cover the window in order. */
export function queueSteps(header: Header, chunks: Chunk[], dir: number, from: number, to: number): [number, number][] {
  const level0 = scene(header, chunks[0], from).queues[dir].length;
  const changes: [number, number][] = [];
  for (const c of chunks) {
    for (let r = 0; r < c.rows; r++) {
      if (c.dir[r] !== dir) continue;
      const start = c.tStart[r];
      if (r >= c.snapshot && start > from && start <= to) changes.push([start, 1]);
      const leaves = Number.isNaN(c.tDeq[r]) ? (c.end[r] === END_DROPPED ? c.tEnd[r] : NaN) : c.tDeq[r];
      // Each row leaves the queue once: count it in the chunk whose span holds that time.
      if (leaves > from && leaves <= to && leaves >= c.t0 && leaves < c.t1) changes.push([leaves, -1]);
    }
  }
  changes.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const steps: [number, number][] = [[from, level0]];
  let level = level0;
  for (const [t, d] of changes) {
    level += d;
    steps.push([t, level]);
  }
  return steps;
}

/** The node a conversation's packets are for (the node of `dst`), if known. */
export function destination(header: Header, conv: number): number | null {
  const node = Number(header.convs[conv].dst.split('.')[0]);
  return header.convs[conv].dst === '' || !Number.isFinite(node) ? null : node;
}

/** Throughput delivered to a conversation's destination, in bit/s, in
 * `bins` equal bins over [from, to]. */
export function deliveredRate(header: Header, chunks: Chunk[], conv: number, from: number, to: number, bins: number): number[] {
  const out = new Array(bins).fill(0);
  const dst = destination(header, conv);
  const width = (to - from) / bins;
  for (const c of chunks) {
    for (let r = 0; r < c.rows; r++) {
      const t = c.tEnd[r];
      if (c.conv[r] !== conv || c.end[r] !== END_RECEIVED || t < c.t0 || t >= c.t1 || t < from || t >= to) continue;
      if (dst !== null && header.dirs[c.dir[r]].to !== dst) continue;
      out[Math.min(bins - 1, Math.floor((t - from) / width))] += (8 * c.size[r]) / width;
    }
  }
  return out;
}

/** A band of overview columns `low` and `high` (or one column for both),
 * scaled by `scale`. */
export function overviewBand(
  header: Header,
  overview: Map<string, Float32Array>,
  low: string,
  high: string,
  scale: number,
  label: string,
  color: string,
): BandSeries | null {
  const lo = overview.get(low);
  const hi = overview.get(high);
  if (!lo || !hi) return null;
  return {
    label,
    color,
    t0: 0,
    binS: header.overview.bin_s,
    low: Array.from(lo, (v) => v * scale),
    high: Array.from(hi, (v) => v * scale),
  };
}
