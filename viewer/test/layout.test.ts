import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Header, LinkInfo } from '../src/format';
import { MIN_LENGTH, Motion, forceLayout, linkLengths, orientAngle, wiredLayout } from '../src/layout';
import { basic1Index } from './fixtures';

const link = (src: number, dst: number, delay: number | null, orient: string | null = null): LinkInfo => ({
  src,
  dst,
  bandwidth: 1e6,
  delay,
  orient,
  color: null,
  label: null,
});

test('orient hints read as nam reads them', () => {
  assert.equal(orientAngle('right'), 0);
  assert.equal(orientAngle('up'), Math.PI / 2);
  assert.equal(orientAngle('down-left'), 1.25 * Math.PI);
  assert.equal(orientAngle('45deg'), Math.PI / 4);
  assert.equal(orientAngle('0.5'), Math.PI / 2);
  assert.equal(orientAngle('sideways'), null);
});

test('drawn lengths follow delay, with a floor for short links', () => {
  assert.deepEqual(linkLengths([link(0, 1, 0.01), link(1, 2, 0.05), link(2, 3, 0)]), [0.2, 1, MIN_LENGTH]);
  assert.deepEqual(linkLengths([link(0, 1, 0.05), link(1, 2, 0.1)]), [0.5, 1]);
});

test('basic1 lies on a line, R-B five times A-R as their delays', () => {
  const layout = wiredLayout(basic1Index().header);
  const [a, r, b] = [0, 1, 2].map((n) => layout.get(n) as { x: number; y: number });
  assert.ok(Math.abs(a.y) < 1e-12 && Math.abs(r.y) < 1e-12 && Math.abs(b.y) < 1e-12);
  assert.ok(Math.abs(r.x - a.x - 0.2) < 1e-12 && Math.abs(b.x - r.x - 1) < 1e-12);
});

test('oriented links place their far end at their angle, both ways round', () => {
  const header = { nodes: [0, 1, 2].map((id) => ({ id })), links: [link(0, 1, 0.1, 'up'), link(2, 1, 0.1, 'left')] } as unknown as Header;
  const layout = wiredLayout(header);
  const p = (n: number) => layout.get(n) as { x: number; y: number };
  assert.ok(Math.abs(p(1).x - p(0).x) < 1e-12 && Math.abs(p(1).y - p(0).y - 1) < 1e-12);
  assert.ok(Math.abs(p(2).x - p(1).x - 1) < 1e-12 && Math.abs(p(2).y - p(1).y) < 1e-12);
});

test('without orient hints, springs bring linked nodes to their lengths', () => {
  const links = [link(0, 1, 0.1), link(1, 2, 0.1), link(2, 3, 0.1), link(3, 0, 0.1)];
  const layout = forceLayout([0, 1, 2, 3], links, linkLengths(links));
  for (const l of links) {
    const a = layout.get(l.src) as { x: number; y: number };
    const b = layout.get(l.dst) as { x: number; y: number };
    assert.ok(Math.abs(Math.hypot(a.x - b.x, a.y - b.y) - 1) < 0.15, `${l.src}-${l.dst}`);
  }
  assert.deepEqual(forceLayout([0, 1, 2, 3], links, linkLengths(links)), layout);
});

test('wireless nodes move along their motion records and stop at the end', () => {
  const header = {
    nodes: [{ id: 5, x: 0, y: 200 }],
    motions: [[1, 5, 0, 200, 8, 0, 10]],
  } as unknown as Header;
  const m = new Motion(header);
  assert.deepEqual(m.at(5, 0.5), { x: 0, y: 200 });
  assert.deepEqual(m.at(5, 3), { x: 16, y: 200 });
  assert.deepEqual(m.at(5, 50), { x: 80, y: 200 });
});
