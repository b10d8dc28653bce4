// The viewer page: network canvas, timeline controls and side panels, kept
// at one simulated time. Playing advances that time by the wall clock times
// the speed; seeking loads the one chunk that covers the new time.

import { convColors } from './colors';
import { Chunk, Header, TimedEvent } from './format';
import { Motion, Point, wiredLayout } from './layout';
import { deliveredRate, destination, overviewBand, queueSteps, variableSteps } from './panels';
import { Series, drawPlot, formatNumber } from './plots';
import { Hit, Renderer, Style } from './draw';
import { Scene, counters, nextEvent, scene, variablesAt } from './scene';
import { Trace } from './source';

/** Speeds offered: simulated seconds per wall second, 1/1000x to 1000x. */
export const MIN_SPEED = 1e-3;
export const MAX_SPEED = 1e3;
/** The panels compute exactly from chunks when their window needs at most this many. */
const DETAIL_CHUNKS = 6;

/** What a click selected, kept across chunks by packet id and direction. */
type Selection = { kind: 'packet'; uid: number; dir: number } | { kind: 'link'; link: number } | { kind: 'node'; node: number };

export interface PacketState {
  /** Where it is drawn (CSS pixels in the network canvas), if it is. */
  x: number | null;
  y: number | null;
  uid: number;
  from: number;
  to: number;
  ptype: string;
  fid: number;
  seq: number;
  size: number;
}

/** What the page shows at its current time: the read-only API for tests. */
export interface ViewState {
  t: number;
  playing: boolean;
  speed: number;
  inFlight: (PacketState & { head: number; tail: number })[];
  /** "from-to" -> packets waiting, next to leave first. */
  queues: Record<string, PacketState[]>;
  falling: PacketState[];
  /** Screen positions (CSS pixels, relative to the network canvas). */
  nodes: Record<string, { x: number; y: number }>;
  /** Drawn node radius, CSS pixels. */
  nodeRadius: number;
  variables: Record<string, number>;
  annotation: string | null;
  info: string;
}

function el<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

export class App {
  private t: number;
  private playing = false;
  private speed: number;
  private last: Scene | null = null;
  private selection: Selection | null = null;
  private queueDir: number;
  private readonly renderer: Renderer;
  private readonly colors: string[];
  private readonly motion: Motion | null;
  private readonly layout: Map<number, Point>;
  private readonly events: TimedEvent[];
  private wallLast = 0;
  private loading: Promise<void> = Promise.resolve();

  constructor(private readonly trace: Trace, title: string) {
    const h = trace.header;
    this.t = h.t_first;
    this.colors = convColors(h);
    this.motion = h.wireless ? new Motion(h) : null;
    this.layout = h.wireless ? new Map() : wiredLayout(h);
    this.events = [...h.events].sort((a, b) => a.t - b.t);
    // Pace: a packet crossing the longest link takes about 2 s of wall time.
    const longest = Math.max(0, ...h.links.map((l) => l.delay ?? 0));
    this.speed = clampSpeed(longest > 0 ? longest / 2 : (h.t_last - h.t_first) / 60 || 1);
    this.queueDir = this.busiestQueue();
    el('title').textContent = title;
    document.title = `${title} - ackclock view`;
    this.renderer = new Renderer(el<HTMLCanvasElement>('network'), h, this.colors);
    this.bind();
    this.resize();
  }

  // --- time ----------------------------------------------------------------------

  async seek(t: number): Promise<void> {
    const h = this.trace.header;
    this.t = Math.min(Math.max(t, h.t_first), h.t_last);
    await this.ensure(this.t);
    this.render();
  }

  private async ensure(t: number): Promise<Chunk> {
    return this.trace.load(this.trace.chunkAt(t));
  }

  play(): void {
    if (this.t >= this.trace.header.t_last) this.t = this.trace.header.t_first;
    this.playing = true;
    this.wallLast = performance.now();
    this.render();
    requestAnimationFrame((now) => this.frame(now));
  }

  pause(): void {
    this.playing = false;
    this.render();
  }

  setSpeed(speed: number): void {
    this.speed = clampSpeed(speed);
    (el<HTMLInputElement>('speed')).value = String(Math.log10(this.speed));
    this.render();
  }

  async step(forward: boolean): Promise<void> {
    this.playing = false;
    const i = this.trace.chunkAt(this.t);
    let next: number | null = nextEvent(await this.trace.load(i), this.t, forward);
    if (next === null && forward && i + 1 < this.trace.chunkCount) next = nextEvent(await this.trace.load(i + 1), this.t, true);
    if (next === null && !forward && i > 0) next = nextEvent(await this.trace.load(i - 1), this.t, false);
    if (next !== null) await this.seek(next);
  }

  private frame(now: number): void {
    if (!this.playing) return;
    const dt = Math.min(0.25, (now - this.wallLast) / 1000);
    this.wallLast = now;
    const h = this.trace.header;
    this.t = Math.min(h.t_last, this.t + dt * this.speed);
    if (this.t >= h.t_last) this.playing = false;
    const i = this.trace.chunkAt(this.t);
    if (i + 1 < this.trace.chunkCount) void this.trace.load(i + 1);
    if (this.trace.cached(i)) this.render();
    else this.loading = this.ensure(this.t).then(() => this.render());
    requestAnimationFrame((n) => this.frame(n));
  }

  // --- drawing ---------------------------------------------------------------------

  private position(node: number): Point {
    return this.motion ? this.motion.at(node, this.t) : this.layout.get(node) ?? { x: 0, y: 0 };
  }

  private fit(): void {
    const h = this.trace.header;
    if (h.wireless) {
      this.renderer.fit({ x: 0, y: 0 }, { x: h.wireless.width, y: h.wireless.height });
      return;
    }
    const points = [...this.layout.values()];
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const pad = 0.05;
    this.renderer.fit(
      { x: Math.min(...xs) - pad, y: Math.min(...ys) - 0.35 },
      { x: Math.max(...xs) + pad, y: Math.max(...ys) + 0.35 },
    );
  }

  private resize(): void {
    const dpr = window.devicePixelRatio || 1;
    for (const canvas of document.querySelectorAll('canvas')) {
      const rect = canvas.getBoundingClientRect();
      canvas.width = Math.max(1, Math.round(rect.width * dpr));
      canvas.height = Math.max(1, Math.round(rect.height * dpr));
    }
    this.fit();
    this.render();
  }

  /** Draws the current time from its chunk if it is loaded (else it loads it). */
  render(): void {
    const chunk = this.trace.cached(this.trace.chunkAt(this.t));
    if (!chunk) {
      this.loading = this.ensure(this.t).then(() => this.render());
      return;
    }
    this.last = scene(this.trace.header, chunk, this.t);
    this.renderer.draw(this.last, (n) => this.position(n), this.style());
    this.drawControls();
    this.drawPanels();
    el('info').textContent = this.info();
  }

  private style(): Style {
    const style: Style = {
      nodeLabel: new Map(),
      nodeColor: new Map(),
      linkDown: new Set(),
      linkColor: new Map(),
      linkLabel: new Map(),
      marks: new Map(),
      selected: this.selectedHit(),
    };
    const links = this.trace.header.links;
    const linkOf = (e: TimedEvent) => links.findIndex((l) => (l.src === e.src && l.dst === e.dst) || (l.src === e.dst && l.dst === e.src));
    for (const e of this.events) {
      if (e.t > this.t) break;
      const value = e.value ?? '';
      if (e.kind === 'node-label') style.nodeLabel.set(e.node as number, value);
      else if (e.kind === 'node-color') style.nodeColor.set(e.node as number, value);
      else if (e.kind === 'link-state') (value === 'DOWN' ? style.linkDown.add(linkOf(e)) : style.linkDown.delete(linkOf(e)));
      else if (e.kind === 'link-color') style.linkColor.set(linkOf(e), value);
      else if (e.kind === 'link-label') style.linkLabel.set(linkOf(e), value);
      else if (e.kind === 'mark') {
        const marks = (style.marks.get(e.node as number) ?? []).filter((m) => m.shape !== `${e.name}`);
        if (e.value !== null) marks.push({ color: e.value, shape: `${e.name}` });
        style.marks.set(e.node as number, marks);
      }
    }
    return style;
  }

  private selectedHit(): Hit | null {
    const s = this.selection;
    if (!s) return null;
    if (s.kind !== 'packet') return s;
    const row = this.rowOf(s.uid, s.dir);
    return row === null ? null : { kind: 'packet', row };
  }

  private rowOf(uid: number, dir: number): number | null {
    const c = this.last?.chunk;
    if (!c) return null;
    for (let r = c.rows - 1; r >= 0; r--) if (c.uid[r] === uid && c.dir[r] === dir && c.tStart[r] <= this.t) return r;
    return null;
  }

  // --- controls and panels -----------------------------------------------------------

  private bind(): void {
    el('play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    el('back').addEventListener('click', () => void this.step(false));
    el('forward').addEventListener('click', () => void this.step(true));
    const speed = el<HTMLInputElement>('speed');
    speed.min = String(Math.log10(MIN_SPEED));
    speed.max = String(Math.log10(MAX_SPEED));
    speed.value = String(Math.log10(this.speed));
    speed.addEventListener('input', () => this.setSpeed(10 ** Number(speed.value)));
    const time = el<HTMLInputElement>('time');
    time.addEventListener('change', () => {
      const t = Number(time.value);
      if (Number.isFinite(t)) void this.seek(t);
    });
    const timeline = el<HTMLCanvasElement>('timeline');
    const seekAt = (e: MouseEvent) => {
      const rect = timeline.getBoundingClientRect();
      const h = this.trace.header;
      void this.seek(h.t_first + ((e.clientX - rect.left) / rect.width) * (h.t_last - h.t_first));
    };
    timeline.addEventListener('mousedown', (e) => {
      seekAt(e);
      const move = (m: MouseEvent) => seekAt(m);
      window.addEventListener('mousemove', move);
      window.addEventListener('mouseup', () => window.removeEventListener('mousemove', move), { once: true });
    });
    el('window').addEventListener('change', () => this.render());
    el<HTMLCanvasElement>('network').addEventListener('click', (e) => {
      const rect = (e.target as HTMLCanvasElement).getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      this.select(this.renderer.hitAt((e.clientX - rect.left) * dpr, (e.clientY - rect.top) * dpr));
    });
    window.addEventListener('resize', () => this.resize());
    window.addEventListener('keydown', (e) => {
      if ((e.target as HTMLElement).tagName === 'INPUT') return;
      if (e.key === ' ') {
        e.preventDefault();
        if (this.playing) this.pause();
        else this.play();
      } else if (e.key === 'ArrowRight') void this.step(true);
      else if (e.key === 'ArrowLeft') void this.step(false);
      else if (e.key === '+' || e.key === '=') this.setSpeed(this.speed * 2);
      else if (e.key === '-') this.setSpeed(this.speed / 2);
    });
  }

  private select(hit: Hit | null): void {
    const c = this.last?.chunk;
    if (hit?.kind === 'packet') this.selection = c ? { kind: 'packet', uid: c.uid[hit.row], dir: c.dir[hit.row] } : null;
    else this.selection = hit;
    if (hit?.kind === 'link') {
      const l = this.trace.header.links[hit.link];
      const dir = this.trace.header.dirs.findIndex((d) => d.from === l.src && d.to === l.dst);
      const back = this.trace.header.dirs.findIndex((d) => d.from === l.dst && d.to === l.src);
      // The queue panel follows the clicked link (its busier direction).
      this.queueDir = this.busier(dir, back);
    }
    this.render();
  }

  private drawControls(): void {
    const h = this.trace.header;
    el('play').textContent = this.playing ? '❚❚' : '▶';
    const time = el<HTMLInputElement>('time');
    if (document.activeElement !== time) time.value = this.t.toFixed(6);
    el('speed-label').textContent = `${formatSpeed(this.speed)} real time`;
    const annotation = h.annotations.filter(([t]) => t <= this.t).pop();
    el('annotation').textContent = annotation ? `${annotation[0]}: ${annotation[1]}` : '';
    this.drawTimeline();
  }

  private drawTimeline(): void {
    const canvas = el<HTMLCanvasElement>('timeline');
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
    const { width, height } = canvas;
    const h = this.trace.header;
    const span = Math.max(1e-12, h.t_last - h.t_first);
    const X = (t: number) => ((t - h.t_first) / span) * width;
    ctx.fillStyle = '#f4f4f4';
    ctx.fillRect(0, 0, width, height);
    // Bytes departed on all links, and drops, per overview bin.
    const bins = h.overview.bins;
    const total = new Float64Array(bins);
    const drops = new Float64Array(bins);
    for (const [name, column] of this.trace.overview) {
      const target = name.startsWith('departed_bytes:') ? total : name.startsWith('drops:') ? drops : null;
      if (target) for (let i = 0; i < bins; i++) target[i] += column[i];
    }
    const peak = Math.max(1, ...total);
    ctx.fillStyle = '#9bb7d4';
    for (let i = 0; i < bins; i++) {
      const x0 = X(i * h.overview.bin_s);
      const hgt = (total[i] / peak) * (height - 4);
      ctx.fillRect(x0, height - hgt, Math.max(1, X((i + 1) * h.overview.bin_s) - x0), hgt);
    }
    ctx.fillStyle = '#d62728';
    for (let i = 0; i < bins; i++) if (drops[i] > 0) ctx.fillRect(X((i + 0.5) * h.overview.bin_s) - 1, 0, 2, height * 0.35);
    ctx.fillStyle = '#555';
    for (const [t] of h.annotations) ctx.fillRect(X(t), height * 0.6, 1, height * 0.4);
    ctx.fillStyle = '#000';
    ctx.fillRect(X(this.t) - 1, 0, 2, height);
  }

  /** The panels' window around now: [from, to]. */
  private window(): [number, number] {
    const h = this.trace.header;
    const choice = (el<HTMLSelectElement>('window')).value;
    if (choice === 'all') return [h.t_first, h.t_last];
    const w = Number(choice);
    const from = Math.max(h.t_first, Math.min(this.t - w / 2, h.t_last - w));
    return [from, Math.min(h.t_last, from + w)];
  }

  /** The chunks covering [from, to] if few and loaded (else null, and they load). */
  private detail(from: number, to: number): Chunk[] | null {
    const first = this.trace.chunkAt(from);
    const last = this.trace.chunkAt(to);
    if (last - first + 1 > DETAIL_CHUNKS) return null;
    const chunks: Chunk[] = [];
    for (let i = first; i <= last; i++) {
      const c = this.trace.cached(i);
      if (!c) {
        void this.trace.load(i).then(() => this.render());
        return null;
      }
      chunks.push(c);
    }
    return chunks;
  }

  private drawPanels(): void {
    const h = this.trace.header;
    const [from, to] = this.window();
    const detail = this.detail(from, to);
    const plot = (id: string, title: string, unit: string, series: Series[], empty: string) =>
      drawPlot(el<HTMLCanvasElement>(id), { title, unit, series, empty, from, to, cursor: this.t });
    const palette = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e'];
    const windows: Series[] = [];
    h.series.forEach((s, i) => {
      if (s.name !== 'cwnd_') return;
      const label = `cwnd ${s.agent}`;
      const color = palette[windows.length % palette.length];
      if (detail) windows.push({ kind: 'steps', label, color, steps: variableSteps(detail, i, from, to) });
      else {
        const band = overviewBand(h, this.trace.overview, `var_min:${i}`, `var_max:${i}`, 1, label, color);
        if (band) windows.push({ kind: 'band', ...band });
      }
    });
    plot('plot-cwnd', 'cwnd', 'packets', windows, 'no cwnd_ records in this trace');
    const d = this.queueDir < 0 ? undefined : h.dirs[this.queueDir];
    const qlabel = d ? `queue ${d.from}→${d.to}` : 'queue';
    const queue: Series[] = [];
    if (d && detail) queue.push({ kind: 'steps', label: qlabel, color: '#1f77b4', steps: queueSteps(h, detail, this.queueDir, from, to) });
    else if (d) {
      const band = overviewBand(h, this.trace.overview, `queue_max:${this.queueDir}`, `queue_max:${this.queueDir}`, 1, `${qlabel} (max)`, '#1f77b4');
      if (band) queue.push({ kind: 'band', ...band });
    }
    plot('plot-queue', qlabel, 'packets', queue, 'no link queues in this trace');
    const rates: Series[] = [];
    const bins = 60;
    h.convs.forEach((c, i) => {
      if (destination(h, i) === null && c.layer !== 'AGT') return;
      if (!this.trace.overview.get(`delivered:${i}`)?.some((v) => v > 0)) return;
      if (rates.length >= 4) return;
      const label = c.layer ? `${c.ptype} (${c.layer})` : `${c.ptype} ${c.src}→${c.dst}`;
      const color = palette[rates.length % palette.length];
      // Wireless deliveries are agent-level records, not hop ends: bins only.
      if (detail && !c.layer) {
        const rate = deliveredRate(h, detail, i, from, to, bins);
        const width = (to - from) / bins;
        rates.push({ kind: 'steps', label, color, steps: rate.map((v, k) => [from + k * width, v] as [number, number]) });
      } else {
        const band = overviewBand(h, this.trace.overview, `delivered:${i}`, `delivered:${i}`, 8 / h.overview.bin_s, label, color);
        if (band) rates.push({ kind: 'band', ...band });
      }
    });
    plot('plot-rate', 'throughput delivered', 'bit/s', rates, 'no packets delivered');
  }

  /** The link direction whose queue grew longest (-1: no links). */
  private busiestQueue(): number {
    let best = -1;
    let most = -1;
    this.trace.header.dirs.forEach((d, i) => {
      if (d.link === null) return;
      const q = this.trace.overview.get(`queue_max:${i}`);
      const m = q ? Math.max(0, ...Array.from(q).filter((v) => !Number.isNaN(v))) : -1;
      if (m > most) {
        most = m;
        best = i;
      }
    });
    return best;
  }

  private busier(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    const load = (d: number) => Array.from(this.trace.overview.get(`queue_max:${d}`) ?? []).reduce((s, v) => s + (Number.isNaN(v) ? 0 : v), 0);
    return load(b) > load(a) ? b : a;
  }

  // --- what is shown, as text and as state ---------------------------------------------

  private packet(c: Chunk, r: number): PacketState {
    const d = this.trace.header.dirs[c.dir[r]];
    const conv = this.trace.header.convs[c.conv[r]];
    const at = this.renderer.packetAt(r);
    const dpr = window.devicePixelRatio || 1;
    return {
      x: at && at.x / dpr,
      y: at && at.y / dpr,
      uid: c.uid[r],
      from: d.from,
      to: d.to,
      ptype: conv.ptype,
      fid: conv.fid,
      seq: c.seq[r],
      size: c.size[r],
    };
  }

  private info(): string {
    const s = this.selection;
    const c = this.last?.chunk;
    const h = this.trace.header;
    if (!s || !c) return 'Click a packet, a link or a node.';
    if (s.kind === 'node') {
      const n = h.nodes.find((x) => x.id === s.node);
      const p = this.motion ? this.motion.at(s.node, this.t) : null;
      return `node ${s.node}${n?.label ? ` (${n.label})` : ''}${p ? `\nat x ${p.x.toFixed(1)}, y ${p.y.toFixed(1)}` : ''}`;
    }
    if (s.kind === 'link') {
      const l = h.links[s.link];
      const lines = [`link ${l.src}–${l.dst}: ${l.bandwidth === null ? '?' : formatNumber(l.bandwidth)}b/s, ${l.delay === null ? '?' : l.delay * 1000} ms`];
      for (const [a, b] of [[l.src, l.dst], [l.dst, l.src]]) {
        const dir = h.dirs.findIndex((d) => d.from === a && d.to === b);
        if (dir < 0) continue;
        const k = counters(c, dir, this.t);
        const waiting = this.last?.queues[dir].length ?? 0;
        lines.push(`${a}→${b}: ${k.arrivals} arrived, ${k.departures} sent (${formatNumber(k.bytesDeparted)} B), ${k.received} received, ${k.dropped} dropped; ${waiting} queued now`);
      }
      return lines.join('\n');
    }
    const r = this.rowOf(s.uid, s.dir);
    if (r === null) return `packet ${s.uid} is not on this link now`;
    const p = this.packet(c, r);
    const conv = h.convs[c.conv[r]];
    const times = [`entered ${c.tStart[r]}`];
    if (!Number.isNaN(c.tDeq[r])) times.push(`sent ${c.tDeq[r]}`);
    if (Number.isFinite(c.tEnd[r])) times.push(`${c.end[r] === 2 ? 'dropped' : 'arrived'} ${c.tEnd[r]}`);
    return [
      `packet ${p.uid}: ${p.ptype}, ${p.size} bytes, flow ${p.fid}`,
      `${conv.src || '?'} → ${conv.dst || '?'}, seq ${p.seq}, flags ${h.flags[c.flags[r]] ?? ''}`,
      `on ${p.from}→${p.to}: ${times.join(', ')}`,
    ].join('\n');
  }

  state(): ViewState {
    const s = this.last;
    const c = s?.chunk;
    const key = (dir: number) => `${this.trace.header.dirs[dir].from}-${this.trace.header.dirs[dir].to}`;
    const queues: Record<string, PacketState[]> = {};
    s?.queues.forEach((rows, dir) => {
      if (rows.length > 0 && c) queues[key(dir)] = rows.map((r) => this.packet(c, r));
    });
    const nodes: Record<string, { x: number; y: number }> = {};
    const dpr = window.devicePixelRatio || 1;
    for (const n of this.trace.header.nodes) {
      const p = this.renderer.screen(this.position(n.id));
      nodes[String(n.id)] = { x: p.x / dpr, y: p.y / dpr };
    }
    const variables: Record<string, number> = {};
    if (c) for (const [i, v] of variablesAt(c, this.t)) {
      const info = this.trace.header.series[i];
      variables[`${info.name} ${info.agent}`] = v;
    }
    const annotation = this.trace.header.annotations.filter(([t]) => t <= this.t).pop();
    return {
      t: this.t,
      playing: this.playing,
      speed: this.speed,
      inFlight: c ? (s?.flights ?? []).map((f) => ({ ...this.packet(c, f.row), head: f.head, tail: f.tail })) : [],
      queues,
      falling: c ? (s?.falls ?? []).map((f) => this.packet(c, f.row)) : [],
      nodes,
      nodeRadius: this.renderer.nodeRadius / dpr,
      variables,
      annotation: annotation ? annotation[1] : null,
      info: this.info(),
    };
  }

  /** Settles once pending chunk loads are done. */
  idle(): Promise<void> {
    return this.loading;
  }

  get header(): Header {
    return this.trace.header;
  }
}

function clampSpeed(x: number): number {
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, x));
}

function formatSpeed(x: number): string {
  return x >= 1 ? `${+x.toPrecision(3)}x` : `1/${+(1 / x).toPrecision(3)}`;
}
