// What is on the network at one instant, from the one chunk that covers it:
// packets in flight (as the stretch of the link their bits occupy), packets
// waiting in each queue, and dropped packets still falling. Pure data: the
// canvas code draws it and the test API reports it.

import { COUNTERS, Chunk, END_DROPPED, END_RECEIVED, Header } from './format';

export interface Flight {
  row: number;
  dir: number;
  /** Fractions of the way from the sending to the receiving node: the
   * packet's first and last bit (equal when the link's rate is unknown). */
  head: number;
  tail: number;
}

export interface Fall {
  row: number;
  dir: number;
  /** Fraction of its fall done, 0 to 1. */
  age: number;
  /** Dropped from the queue (else on the link or at its far end). */
  fromQueue: boolean;
}

export interface Scene {
  t: number;
  chunk: Chunk;
  flights: Flight[];
  /** Rows waiting in each direction's queue, oldest (next to leave) first. */
  queues: number[][];
  falls: Fall[];
}

/** Rows started by t: all snapshot rows, and the chunk's own up to t. */
function startedBy(chunk: Chunk, t: number): number {
  let lo = chunk.snapshot;
  let hi = chunk.rows;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chunk.tStart[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function scene(header: Header, chunk: Chunk, t: number): Scene {
  const queues: number[][] = header.dirs.map(() => []);
  const flights: Flight[] = [];
  const falls: Fall[] = [];
  const started = startedBy(chunk, t);
  for (let r = 0; r < started; r++) {
    if (chunk.tStart[r] > t) continue;
    const dir = chunk.dir[r];
    const deq = chunk.tDeq[r];
    const end = chunk.tEnd[r];
    if (t < end) {
      if (Number.isNaN(deq) || t < deq) queues[dir].push(r);
      else flights.push({ row: r, dir, ...extent(header, chunk, r, t) });
    } else if (chunk.end[r] === END_DROPPED && t < end + header.fall_s) {
      falls.push({ row: r, dir, age: (t - end) / header.fall_s, fromQueue: Number.isNaN(deq) || deq === end });
    }
  }
  return { t, chunk, flights, queues, falls };
}

/** Where a packet in flight is: on a link of known rate and delay, as nam
 * draws it (its bits spread over the link); else by the share of its hop's
 * time that has passed. */
function extent(header: Header, chunk: Chunk, r: number, t: number): { head: number; tail: number } {
  const d = header.dirs[chunk.dir[r]];
  const link = d.link === null ? null : header.links[d.link];
  const since = t - chunk.tDeq[r];
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  if (link && link.delay && link.delay > 0 && link.bandwidth) {
    const head = clamp(since / link.delay);
    const tail = clamp((since - (8 * chunk.size[r]) / link.bandwidth) / link.delay);
    return { head, tail };
  }
  const span = chunk.tEnd[r] - chunk.tDeq[r];
  const share = Number.isFinite(span) && span > 0 ? clamp(since / span) : 0.5;
  return { head: share, tail: share };
}

export interface Counters {
  arrivals: number;
  departures: number;
  bytesDeparted: number;
  received: number;
  dropped: number;
}

/** A direction's counts of events up to and including t. */
export function counters(chunk: Chunk, dir: number, t: number): Counters {
  const base = (k: number) => (dir * COUNTERS + k < chunk.counters.length ? chunk.counters[dir * COUNTERS + k] : 0);
  const c = { arrivals: base(0), departures: base(1), bytesDeparted: base(2), received: base(3), dropped: base(4) };
  const within = (x: number) => x >= chunk.t0 && x <= t;
  for (let r = 0; r < chunk.rows; r++) {
    if (chunk.dir[r] !== dir) continue;
    if (within(chunk.tStart[r])) c.arrivals++;
    if (within(chunk.tDeq[r])) {
      c.departures++;
      c.bytesDeparted += chunk.size[r];
    }
    if (within(chunk.tEnd[r])) {
      if (chunk.end[r] === END_RECEIVED) c.received++;
      else if (chunk.end[r] === END_DROPPED) c.dropped++;
    }
  }
  return c;
}

/** The next (or, `forward` false, previous) time in the chunk at which a
 * packet event happens, or null. */
export function nextEvent(chunk: Chunk, t: number, forward: boolean): number | null {
  let best: number | null = null;
  const consider = (x: number) => {
    if (!Number.isFinite(x)) return;
    if (forward ? x > t && (best === null || x < best) : x < t && (best === null || x > best)) best = x;
  };
  for (let r = 0; r < chunk.rows; r++) {
    consider(chunk.tStart[r]);
    consider(chunk.tDeq[r]);
    consider(chunk.tEnd[r]);
  }
  return best;
}

/** Each variable series' latest value at t, from the chunk's records. */
export function variablesAt(chunk: Chunk, t: number): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < chunk.varT.length && chunk.varT[i] <= t; i++) out.set(chunk.varSeries[i], chunk.varV[i]);
  return out;
}
