// Drawing a scene on a canvas, nam's way: nodes as circles, links as lines
// whose length follows their delay, a packet in flight as the stretch of its
// link that its bits occupy (each direction in its own lane), queued packets
// as squares stacked at the queue's angle, drops tumbling down. Every drawn
// packet, link and node is remembered for clicks.

import { Header } from './format';
import { Point, orientAngle } from './layout';
import { Scene } from './scene';

export type Hit =
  | { kind: 'packet'; row: number }
  | { kind: 'link'; link: number }
  | { kind: 'node'; node: number };

interface Shape {
  hit: Hit;
  /** Polygon in screen pixels. */
  points: Point[];
}

export interface Style {
  /** Timed state at this instant: labels, colours, links down. */
  nodeLabel: Map<number, string>;
  nodeColor: Map<number, string>;
  linkDown: Set<number>;
  linkColor: Map<number, string>;
  linkLabel: Map<number, string>;
  marks: Map<number, { color: string; shape: string }[]>;
  selected: Hit | null;
}

/** The world-to-screen transform and sizes for one canvas. */
export class Renderer {
  private readonly ctx: CanvasRenderingContext2D;
  private shapes: Shape[] = [];
  private scale = 1;
  private offset: Point = { x: 0, y: 0 };
  nodeRadius = 12;

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly header: Header,
    private readonly convColor: string[],
  ) {
    this.ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  }

  /** Fits the world rectangle [min, max] into the canvas with a margin. */
  fit(min: Point, max: Point): void {
    const { width, height } = this.canvas;
    const margin = 0.12;
    const w = Math.max(1e-9, max.x - min.x);
    const h = Math.max(1e-9, max.y - min.y);
    this.scale = Math.min((width * (1 - 2 * margin)) / w, (height * (1 - 2 * margin)) / h);
    if (!Number.isFinite(this.scale) || this.scale <= 0) this.scale = Math.min(width, height) / 2;
    this.offset = { x: width / 2 - ((min.x + max.x) / 2) * this.scale, y: height / 2 + ((min.y + max.y) / 2) * this.scale };
    this.nodeRadius = this.header.wireless ? 9 : Math.max(8, Math.min(22, 0.07 * this.scale));
  }

  screen(p: Point): Point {
    return { x: this.offset.x + p.x * this.scale, y: this.offset.y - p.y * this.scale };
  }

  /** The middle of packet row `row` as drawn last (canvas pixels), if drawn. */
  packetAt(row: number): Point | null {
    const shape = this.shapes.find((s) => s.hit.kind === 'packet' && s.hit.row === row);
    if (!shape) return null;
    const n = shape.points.length;
    return { x: shape.points.reduce((a, p) => a + p.x, 0) / n, y: shape.points.reduce((a, p) => a + p.y, 0) / n };
  }

  hitAt(x: number, y: number): Hit | null {
    // Packets first (drawn on top), then links, then nodes: the smallest wins.
    for (let i = this.shapes.length - 1; i >= 0; i--) {
      if (inside(this.shapes[i].points, x, y)) return this.shapes[i].hit;
    }
    return null;
  }

  draw(scene: Scene, position: (node: number) => Point, style: Style): void {
    const ctx = this.ctx;
    const { width, height } = this.canvas;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    this.shapes = [];
    const header = this.header;
    const at = new Map(header.nodes.map((n) => [n.id, this.screen(position(n.id))]));
    if (header.wireless) this.drawArea();
    header.links.forEach((l, i) => this.drawLink(i, at.get(l.src) as Point, at.get(l.dst) as Point, style));
    const nodeShapes: Shape[] = [];
    for (const n of header.nodes) nodeShapes.push(this.drawNode(n.id, at.get(n.id) as Point, style));
    const linkShapes = this.shapes;
    this.shapes = [];
    scene.queues.forEach((rows, dir) => rows.forEach((row, i) => this.drawQueued(scene, dir, row, i, at, style)));
    for (const f of scene.flights) this.drawFlight(scene, f.row, f.dir, f.head, f.tail, at, style);
    for (const f of scene.falls) this.drawFall(scene, f.row, f.dir, f.age, f.fromQueue, at, style);
    this.shapes = [...nodeShapes, ...linkShapes, ...this.shapes];
  }

  private drawArea(): void {
    const area = this.header.wireless as { width: number; height: number };
    const a = this.screen({ x: 0, y: 0 });
    const b = this.screen({ x: area.width, y: area.height });
    this.ctx.strokeStyle = '#cccccc';
    this.ctx.setLineDash([4, 4]);
    this.ctx.strokeRect(a.x, b.y, b.x - a.x, a.y - b.y);
    this.ctx.setLineDash([]);
  }

  private drawLink(i: number, a: Point, b: Point, style: Style): void {
    const ctx = this.ctx;
    const link = this.header.links[i];
    const down = style.linkDown.has(i);
    ctx.strokeStyle = down ? '#e00000' : style.linkColor.get(i) ?? link.color ?? 'black';
    ctx.lineWidth = style.selected?.kind === 'link' && style.selected.link === i ? 4 : 2;
    ctx.setLineDash(down ? [6, 4] : []);
    ctx.beginPath();
    ctx.moveTo(a.x, a.y);
    ctx.lineTo(b.x, b.y);
    ctx.stroke();
    ctx.setLineDash([]);
    const label = style.linkLabel.get(i) ?? link.label;
    if (label) {
      ctx.fillStyle = '#333';
      ctx.font = '12px sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText(label, (a.x + b.x) / 2, (a.y + b.y) / 2 - this.nodeRadius * 1.2);
    }
    const lane = this.nodeRadius * 0.9;
    const { nx, ny } = normal(a, b);
    this.shapes.push({
      hit: { kind: 'link', link: i },
      points: [
        { x: a.x + nx * lane, y: a.y + ny * lane },
        { x: b.x + nx * lane, y: b.y + ny * lane },
        { x: b.x - nx * lane, y: b.y - ny * lane },
        { x: a.x - nx * lane, y: a.y - ny * lane },
      ],
    });
  }

  private drawNode(id: number, p: Point, style: Style): Shape {
    const ctx = this.ctx;
    const info = this.header.nodes.find((n) => n.id === id);
    const r = this.nodeRadius;
    const color = style.nodeColor.get(id) ?? info?.color ?? 'black';
    for (const [k, mark] of (style.marks.get(id) ?? []).entries()) {
      ctx.strokeStyle = mark.color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(p.x, p.y, r + 4 + 4 * k, 0, 2 * Math.PI);
      ctx.stroke();
    }
    ctx.fillStyle = '#ffffff';
    ctx.strokeStyle = color;
    ctx.lineWidth = style.selected?.kind === 'node' && style.selected.node === id ? 4 : 2;
    ctx.beginPath();
    if (info?.shape === 'box' || info?.shape === 'square') ctx.rect(p.x - r, p.y - r, 2 * r, 2 * r);
    else if (info?.shape === 'hexagon') {
      for (let k = 0; k < 6; k++) ctx.lineTo(p.x + r * Math.cos((k * Math.PI) / 3), p.y + r * Math.sin((k * Math.PI) / 3));
      ctx.closePath();
    } else ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = color;
    ctx.font = `${Math.round(r * 0.9)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(id), p.x, p.y);
    const label = style.nodeLabel.get(id) ?? info?.label;
    if (label) {
      ctx.font = '13px sans-serif';
      ctx.fillStyle = '#222';
      ctx.fillText(label, p.x, p.y + r + 11);
    }
    ctx.textBaseline = 'alphabetic';
    return { hit: { kind: 'node', node: id }, points: square(p, r) };
  }

  private packetSide(): number {
    return Math.max(5, this.nodeRadius * 0.55);
  }

  private fill(scene: Scene, row: number, style: Style): string {
    const selected = style.selected?.kind === 'packet' && style.selected.row === row;
    return selected ? '#ffd000' : this.convColor[scene.chunk.conv[row]] ?? 'black';
  }

  /** The two ends of a direction, between the nodes' rims, and its lane offset. */
  private lane(dir: number, at: Map<number, Point>): { a: Point; b: Point; nx: number; ny: number } | null {
    const d = this.header.dirs[dir];
    const a = at.get(d.from);
    const b = d.to >= 0 ? at.get(d.to) : undefined;
    if (!a || !b) return null;
    const { nx, ny } = normal(a, b);
    const len = Math.max(1e-9, Math.hypot(b.x - a.x, b.y - a.y));
    const rim = Math.min(this.nodeRadius, len / 3);
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    // Each direction keeps to its right-hand side of the line.
    const off = this.packetSide() * 0.45;
    return {
      a: { x: a.x + ux * rim - nx * off, y: a.y + uy * rim - ny * off },
      b: { x: b.x - ux * rim - nx * off, y: b.y - uy * rim - ny * off },
      nx,
      ny,
    };
  }

  private drawFlight(scene: Scene, row: number, dir: number, head: number, tail: number, at: Map<number, Point>, style: Style): void {
    const ctx = this.ctx;
    const d = this.header.dirs[dir];
    ctx.fillStyle = this.fill(scene, row, style);
    if (d.to < 0) {
      // A wireless broadcast: a ring spreading from the sender.
      const p = at.get(d.from);
      if (!p) return;
      ctx.strokeStyle = ctx.fillStyle;
      ctx.globalAlpha = 0.6;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(p.x, p.y, this.nodeRadius + head * 250 * this.scale, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.globalAlpha = 1;
      return;
    }
    const lane = this.lane(dir, at);
    if (!lane) return;
    const { a, b, nx, ny } = lane;
    const side = this.packetSide();
    const along = (f: number) => ({ x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });
    let h = along(head);
    let t = along(tail);
    // At least a square's worth, so that small packets stay visible.
    const len = Math.hypot(h.x - t.x, h.y - t.y);
    if (len < side) {
      const ux = (b.x - a.x) / Math.max(1e-9, Math.hypot(b.x - a.x, b.y - a.y));
      const uy = (b.y - a.y) / Math.max(1e-9, Math.hypot(b.x - a.x, b.y - a.y));
      const mid = { x: (h.x + t.x) / 2, y: (h.y + t.y) / 2 };
      h = { x: mid.x + (ux * side) / 2, y: mid.y + (uy * side) / 2 };
      t = { x: mid.x - (ux * side) / 2, y: mid.y - (uy * side) / 2 };
    }
    const w = side / 2;
    const points = [
      { x: t.x + nx * w, y: t.y + ny * w },
      { x: h.x + nx * w, y: h.y + ny * w },
      { x: h.x - nx * w, y: h.y - ny * w },
      { x: t.x - nx * w, y: t.y - ny * w },
    ];
    polygon(ctx, points);
    ctx.fill();
    // A white rim keeps back-to-back packets apart.
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 1;
    ctx.stroke();
    this.shapes.push({ hit: { kind: 'packet', row }, points });
  }

  /** Where a direction's queue starts and which way it grows. */
  private queueBase(dir: number, at: Map<number, Point>): { base: Point; ux: number; uy: number } | null {
    const d = this.header.dirs[dir];
    const a = at.get(d.from);
    if (!a) return null;
    const b = d.to >= 0 ? at.get(d.to) : undefined;
    const linkAngle = b ? Math.atan2(-(b.y - a.y), b.x - a.x) : 0;
    const pos = d.queue_pos === null ? 0.5 : orientAngle(d.queue_pos) ?? 0.5 * Math.PI;
    const angle = linkAngle + pos;
    const ux = Math.cos(angle);
    const uy = -Math.sin(angle);
    const r = this.nodeRadius;
    // Beside the sending node, at the start of its lane.
    const toward = b ? { x: (b.x - a.x) / Math.hypot(b.x - a.x, b.y - a.y), y: (b.y - a.y) / Math.hypot(b.x - a.x, b.y - a.y) } : { x: 0, y: 0 };
    return { base: { x: a.x + toward.x * r * 1.6 + ux * r * 0.6, y: a.y + toward.y * r * 1.6 + uy * r * 0.6 }, ux, uy };
  }

  private queueSlot(dir: number, index: number, at: Map<number, Point>): Point | null {
    const q = this.queueBase(dir, at);
    if (!q) return null;
    const step = this.packetSide() * 1.2;
    return { x: q.base.x + q.ux * step * (index + 0.5), y: q.base.y + q.uy * step * (index + 0.5) };
  }

  private drawQueued(scene: Scene, dir: number, row: number, index: number, at: Map<number, Point>, style: Style): void {
    const p = this.queueSlot(dir, index, at);
    if (!p) return;
    const side = this.packetSide();
    const points = square(p, side / 2);
    this.ctx.fillStyle = this.fill(scene, row, style);
    polygon(this.ctx, points);
    this.ctx.fill();
    this.ctx.strokeStyle = '#ffffff';
    this.ctx.lineWidth = 1;
    this.ctx.stroke();
    this.shapes.push({ hit: { kind: 'packet', row }, points });
  }

  private drawFall(scene: Scene, row: number, dir: number, age: number, fromQueue: boolean, at: Map<number, Point>, style: Style): void {
    const d = this.header.dirs[dir];
    let start: Point | null;
    if (fromQueue) start = this.queueSlot(dir, scene.queues[dir].length, at);
    else start = (d.to >= 0 ? at.get(d.to) : at.get(d.from)) ?? null;
    if (!start) return;
    const fall = this.nodeRadius * 7 * age * age;
    const drift = this.nodeRadius * 1.5 * age;
    const p = { x: start.x + drift, y: start.y + fall };
    const side = this.packetSide();
    const turn = age * 2.5 * Math.PI;
    const points = [0, 1, 2, 3].map((k) => ({
      x: p.x + (side / Math.SQRT2) * Math.cos(turn + Math.PI / 4 + (k * Math.PI) / 2),
      y: p.y + (side / Math.SQRT2) * Math.sin(turn + Math.PI / 4 + (k * Math.PI) / 2),
    }));
    this.ctx.globalAlpha = 1 - 0.6 * age;
    this.ctx.fillStyle = this.fill(scene, row, style);
    polygon(this.ctx, points);
    this.ctx.fill();
    this.ctx.globalAlpha = 1;
    this.shapes.push({ hit: { kind: 'packet', row }, points });
  }
}

function normal(a: Point, b: Point): { nx: number; ny: number } {
  const len = Math.max(1e-9, Math.hypot(b.x - a.x, b.y - a.y));
  return { nx: -(b.y - a.y) / len, ny: (b.x - a.x) / len };
}

function square(p: Point, half: number): Point[] {
  return [
    { x: p.x - half, y: p.y - half },
    { x: p.x + half, y: p.y - half },
    { x: p.x + half, y: p.y + half },
    { x: p.x - half, y: p.y + half },
  ];
}

function polygon(ctx: CanvasRenderingContext2D, points: Point[]): void {
  ctx.beginPath();
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  ctx.closePath();
}

function inside(points: Point[], x: number, y: number): boolean {
  let odd = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const a = points[i];
    const b = points[j];
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) odd = !odd;
  }
  return odd;
}
