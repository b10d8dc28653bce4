// Decoding the index that the Rust core writes (crates/ackclock-trace/src/view):
// its JSON header, the whole-run overview columns and the time chunks.

export interface NodeInfo {
  id: number;
  shape: string | null;
  color: string | null;
  label: string | null;
  x: number | null;
  y: number | null;
  size: number | null;
}

export interface LinkInfo {
  src: number;
  dst: number;
  bandwidth: number | null;
  delay: number | null;
  orient: string | null;
  color: string | null;
  label: string | null;
}

export interface DirInfo {
  from: number;
  /** -1: a wireless broadcast. */
  to: number;
  /** Index into `links`, or null for a direction without a link (wireless). */
  link: number | null;
  queue_pos: string | null;
}

export interface Conv {
  ptype: string;
  fid: number;
  attr: number;
  src: string;
  dst: string;
  layer: string | null;
}

export interface SeriesInfo {
  agent: string;
  peer: string;
  name: string;
}

/** A timed change: node-label, node-color, node-state, link-state, link-color, link-label, mark. */
export interface TimedEvent {
  t: number;
  kind: string;
  node?: number;
  src?: number;
  dst?: number;
  value: string | null;
  name?: string;
  shape?: string;
}

export interface Header {
  format: number;
  t_first: number;
  t_last: number;
  hops: number;
  fall_s: number;
  nodes: NodeInfo[];
  links: LinkInfo[];
  dirs: DirInfo[];
  colors: Record<string, string>;
  convs: Conv[];
  flags: string[];
  series: SeriesInfo[];
  events: TimedEvent[];
  /** [t, node, x, y, vx, vy, duration] */
  motions: [number, number, number, number, number, number, number][];
  annotations: [number, string][];
  wireless: { width: number; height: number } | null;
  chunks: { t0: number[]; t1: number[]; offset: number[]; length: number[] };
  overview: { offset: number; length: number; bin_s: number; bins: number; columns: string[] };
}

export const END_UNKNOWN = 0;
export const END_RECEIVED = 1;
export const END_DROPPED = 2;

/** One chunk: its hops as columns (the first `snapshot` started before t0). */
export interface Chunk {
  t0: number;
  t1: number;
  rows: number;
  snapshot: number;
  tStart: Float64Array;
  /** NaN: never transmitted. */
  tDeq: Float64Array;
  /** Infinity: never ended. */
  tEnd: Float64Array;
  uid: Float64Array;
  /** Per direction at t0: arrivals, departures, bytes departed, received, dropped. */
  counters: Float64Array;
  varT: Float64Array;
  varV: Float64Array;
  varSeries: Uint32Array;
  dir: Uint32Array;
  size: Uint32Array;
  conv: Uint32Array;
  seq: Int32Array;
  flags: Uint16Array;
  end: Uint8Array;
}

export const COUNTERS = 5;

/** The header's place: the last 24 bytes are its offset, length and "ACKVEND1". */
export function readTrailer(tail: ArrayBuffer): { offset: number; length: number } {
  if (tail.byteLength !== 24) throw new Error('the index trailer is 24 bytes');
  const magic = new TextDecoder().decode(new Uint8Array(tail, 16, 8));
  if (magic !== 'ACKVEND1') throw new Error('not a complete ackclock view index');
  const view = new DataView(tail);
  return { offset: Number(view.getBigUint64(0, true)), length: Number(view.getBigUint64(8, true)) };
}

export function decodeHeader(bytes: ArrayBuffer): Header {
  const header = JSON.parse(new TextDecoder().decode(bytes)) as Header;
  if (header.format !== 1) throw new Error(`index format ${header.format} is not supported`);
  return header;
}

/** The overview's columns by name (`kind:index`), `bins` values each. */
export function decodeOverview(bytes: ArrayBuffer, header: Header): Map<string, Float32Array> {
  const { bins, columns } = header.overview;
  const out = new Map<string, Float32Array>();
  columns.forEach((name, i) => out.set(name, new Float32Array(bytes, 4 * bins * i, bins)));
  return out;
}

export function decodeChunk(bytes: ArrayBuffer): Chunk {
  const head = new DataView(bytes, 0, 32);
  const rows = head.getUint32(0, true);
  const snapshot = head.getUint32(4, true);
  const vars = head.getUint32(8, true);
  const dirs = head.getUint32(12, true);
  let at = 32;
  const f64 = (n: number) => {
    const column = new Float64Array(bytes, at, n);
    at += 8 * n;
    return column;
  };
  const tStart = f64(rows);
  const tDeq = f64(rows);
  const tEnd = f64(rows);
  const uid = f64(rows);
  const counters = f64(dirs * COUNTERS);
  const varT = f64(vars);
  const varV = f64(vars);
  const u32 = (n: number) => {
    const column = new Uint32Array(bytes, at, n);
    at += 4 * n;
    return column;
  };
  const dir = u32(rows);
  const size = u32(rows);
  const conv = u32(rows);
  const seq = new Int32Array(bytes, at, rows);
  at += 4 * rows;
  const varSeries = u32(vars);
  const flags = new Uint16Array(bytes, at, rows);
  at += 2 * rows;
  const end = new Uint8Array(bytes, at, rows);
  at += rows;
  if (at > bytes.byteLength) throw new Error('a chunk is shorter than its counts say');
  return {
    t0: head.getFloat64(16, true),
    t1: head.getFloat64(24, true),
    rows,
    snapshot,
    tStart,
    tDeq,
    tEnd,
    uid,
    counters,
    varT,
    varV,
    varSeries,
    dir,
    size,
    conv,
    seq,
    flags,
    end,
  };
}

/** The chunk to draw time t from: the last one starting at or before t. */
export function chunkAt(header: Header, t: number): number {
  const t0 = header.chunks.t0;
  let lo = 0;
  let hi = t0.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t0[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
