// Where nodes are drawn. Wired: links drawn with length proportional to
// their delay, placed by their `orient` hints (as nam does) when every link
// has one, else by a force layout with those lengths as springs. Wireless:
// the nodes' own coordinates, moving as the trace's motion records say.

import { Header, LinkInfo } from './format';

export interface Point {
  x: number;
  y: number;
}

/** Shortest drawn link, as a fraction of the longest: zero-delay links stay visible. */
export const MIN_LENGTH = 0.2;

/** Drawn length of each link, the longest being 1. */
export function linkLengths(links: LinkInfo[]): number[] {
  const longest = Math.max(0, ...links.map((l) => l.delay ?? 0));
  return links.map((l) => (longest > 0 ? Math.max(MIN_LENGTH, (l.delay ?? 0) / longest) : 1));
}

/** An orient hint as an angle in radians, counter-clockwise from "right". */
export function orientAngle(orient: string): number | null {
  const named: Record<string, number> = {
    right: 0,
    'up-right': 0.25,
    'right-up': 0.25,
    up: 0.5,
    'up-left': 0.75,
    'left-up': 0.75,
    left: 1,
    'down-left': 1.25,
    'left-down': 1.25,
    down: 1.5,
    'down-right': 1.75,
    'right-down': 1.75,
  };
  const key = orient.toLowerCase();
  if (key in named) return named[key] * Math.PI;
  if (key.endsWith('deg')) {
    const degrees = Number(key.slice(0, -3));
    return Number.isFinite(degrees) ? (degrees * Math.PI) / 180 : null;
  }
  // A bare number is in units of pi, as nam reads queue positions.
  const turns = Number(key);
  return Number.isFinite(turns) ? turns * Math.PI : null;
}

/** Positions of the nodes of a wired network, in link-length units (y up). */
export function wiredLayout(header: Header): Map<number, Point> {
  const ids = header.nodes.map((n) => n.id);
  const lengths = linkLengths(header.links);
  const angles = header.links.map((l) => (l.orient === null ? null : orientAngle(l.orient)));
  if (header.links.length > 0 && angles.every((a) => a !== null)) {
    return orientedLayout(ids, header.links, lengths, angles as number[]);
  }
  return forceLayout(ids, header.links, lengths);
}

/** Each component from its lowest node outwards along its links' angles;
 * components side by side. */
function orientedLayout(ids: number[], links: LinkInfo[], lengths: number[], angles: number[]): Map<number, Point> {
  const out = new Map<number, Point>();
  let offsetX = 0;
  for (const start of ids) {
    if (out.has(start)) continue;
    const component = new Map<number, Point>([[start, { x: 0, y: 0 }]]);
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift() as number;
      const p = component.get(node) as Point;
      links.forEach((l, i) => {
        const forward = l.src === node;
        if (!forward && l.dst !== node) return;
        const other = forward ? l.dst : l.src;
        if (component.has(other)) return;
        const a = angles[i] + (forward ? 0 : Math.PI);
        component.set(other, { x: p.x + lengths[i] * Math.cos(a), y: p.y + lengths[i] * Math.sin(a) });
        queue.push(other);
      });
    }
    const xs = [...component.values()].map((p) => p.x);
    const shift = offsetX - Math.min(...xs);
    for (const [id, p] of component) out.set(id, { x: p.x + shift, y: p.y });
    offsetX += Math.max(...xs) - Math.min(...xs) + 1;
  }
  return out;
}

/** Springs of each link's length between linked nodes, mild repulsion
 * between all; deterministic (nodes start on a circle). */
export function forceLayout(ids: number[], links: LinkInfo[], lengths: number[]): Map<number, Point> {
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const x = ids.map((_, i) => Math.cos((2 * Math.PI * i) / Math.max(1, n)) * 0.5 * Math.max(1, n / 3));
  const y = ids.map((_, i) => Math.sin((2 * Math.PI * i) / Math.max(1, n)) * 0.5 * Math.max(1, n / 3));
  const springs = links
    .map((l, i) => [index.get(l.src), index.get(l.dst), lengths[i]] as const)
    .filter((s): s is readonly [number, number, number] => s[0] !== undefined && s[1] !== undefined);
  for (let step = 0; step < 500; step++) {
    const cooling = 0.1 * (1 - step / 500) + 0.005;
    const fx = new Array(n).fill(0);
    const fy = new Array(n).fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = x[i] - x[j];
        const dy = y[i] - y[j];
        const d2 = Math.max(1e-4, dx * dx + dy * dy);
        const push = 0.1 / d2;
        fx[i] += dx * push;
        fy[i] += dy * push;
        fx[j] -= dx * push;
        fy[j] -= dy * push;
      }
    }
    for (const [a, b, rest] of springs) {
      const dx = x[b] - x[a];
      const dy = y[b] - y[a];
      const d = Math.max(1e-6, Math.hypot(dx, dy));
      const pull = (d - rest) / d;
      fx[a] += dx * pull;
      fy[a] += dy * pull;
      fx[b] -= dx * pull;
      fy[b] -= dy * pull;
    }
    for (let i = 0; i < n; i++) {
      const f = Math.hypot(fx[i], fy[i]);
      const scale = f > 1 ? 1 / f : 1;
      x[i] += fx[i] * scale * cooling * 5;
      y[i] += fy[i] * scale * cooling * 5;
    }
  }
  return new Map(ids.map((id, i) => [id, { x: x[i], y: y[i] }]));
}

/** Wireless node positions at any time: the initial coordinates, then each
 * motion record's straight line (at its velocity, for its duration). */
export class Motion {
  private readonly start = new Map<number, Point>();
  private readonly moves = new Map<number, [number, number, number, number, number, number][]>();

  constructor(header: Header) {
    for (const n of header.nodes) this.start.set(n.id, { x: n.x ?? 0, y: n.y ?? 0 });
    for (const [t, node, x, y, vx, vy, duration] of header.motions) {
      const list = this.moves.get(node) ?? [];
      list.push([t, x, y, vx, vy, duration]);
      this.moves.set(node, list);
    }
  }

  at(node: number, t: number): Point {
    const list = this.moves.get(node);
    let p = this.start.get(node) ?? { x: 0, y: 0 };
    if (!list) return p;
    for (const [t0, x, y, vx, vy, duration] of list) {
      if (t0 > t) break;
      const dt = Math.min(t - t0, duration);
      p = { x: x + vx * dt, y: y + vy * dt };
    }
    return p;
  }
}
