import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queueSteps } from '../src/panels';
import { scene } from '../src/scene';
import { basic1Index, dirIndex } from './fixtures';

test('the queue plot steps through the same lengths as the scene', () => {
  const { header, chunks } = basic1Index();
  const d = dirIndex(header, 1, 2);
  const steps = queueSteps(header, chunks, d, 0.3, 0.6);
  for (const t of [0.3, 0.41, 0.5, 0.58, 0.5862, 0.599]) {
    const level = steps.filter(([at]) => at <= t).pop() as [number, number];
    assert.equal(level[1], scene(header, chunks[0], t).queues[d].length, `at ${t}`);
  }
});
