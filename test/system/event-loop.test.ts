// Long loops on the serving thread give the event loop a turn (src/infra/event-loop.ts): what runs
// between their slices, and that every item is still visited once, in order.
import { describe, expect, it } from 'vitest';
import { forEachSliced, TimeSlicer } from '../../src/infra/event-loop.ts';

/** Runs the loop with an immediate queued before it; returns the items seen and how many of them came before the immediate ran. */
async function run(slicer: TimeSlicer, count: number) {
  const items = Array.from({ length: count }, (_, i) => i * 10);
  const seen: Array<[number, number]> = [];
  let before: number | null = null;
  setImmediate(() => (before = seen.length));
  await forEachSliced(items, (item, index) => void seen.push([item, index]), slicer);
  return { items, seen, before: before ?? seen.length };
}

describe('forEachSliced', () => {
  it('visits every item once, in order, with its index', async () => {
    const { items, seen } = await run(new TimeSlicer(0), 1000);
    expect(seen).toEqual(items.map((item, index) => [item, index]));
  });

  it('lets the event loop run once its slice is used up (checked every 64 items)', async () => {
    const { before } = await run(new TimeSlicer(0), 1000);
    expect(before).toBe(64);
  });

  it('does not yield while the slice lasts', async () => {
    const { before, seen } = await run(new TimeSlicer(60_000), 1000);
    expect(seen).toHaveLength(1000);
    expect(before).toBe(1000);
  });

  it('handles no items', async () => {
    const { seen } = await run(new TimeSlicer(0), 0);
    expect(seen).toEqual([]);
  });
});
