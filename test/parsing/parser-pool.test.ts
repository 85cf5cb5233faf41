// The worker pool: parsing happens off the main thread, the wall-time limit stops a slow file, and
// the other workers keep serving while it runs.
import { afterEach, describe, expect, it } from 'vitest';
import { ParserPool } from '../../src/parsing/parser-pool.ts';
import { testConfig } from '../helpers/app.ts';
import { makeArticlePdf, makeManyPagesPdf } from './make-files.ts';

let pool: ParserPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('ParserPool', () => {
  it('parses in a worker thread and returns the same result shape', async () => {
    pool = new ParserPool({ ...testConfig().parsing, workers: 1 });
    const r = await pool.parse(makeArticlePdf(), 'a.pdf');
    expect(r.error).toBeNull();
    expect(r.title).toBe('A Study of Things That Parse Well');
    expect(r.authors).toHaveLength(2);
  });

  it('stops a file at the wall-time limit while the other worker keeps serving, then replaces the worker', async () => {
    pool = new ParserPool({
      ...testConfig().parsing,
      workers: 2,
      maxPages: 100_000,
      maxChars: 1_000_000_000,
      // No content or text budget: they would skip what the time limit is to stop.
      maxDocumentContentBytes: 1024 ** 3,
      maxDocumentTextItems: 1_000_000_000,
      timeoutMs: 8000,
    });
    // Start both workers first, so that start-up time plays no part in what follows.
    await Promise.all([pool.parse(makeArticlePdf(), 'warm1.pdf'), pool.parse(makeArticlePdf(), 'warm2.pdf')]);
    const order: string[] = [];
    // 15,000 pages of text: far more work than the time limit allows on any machine (and each page's
    // own font dictionary under the 20,000 the pre-check reads before it refuses a file unread).
    const slow = pool.parse(makeManyPagesPdf(15_000), 'slow.pdf').then((r) => {
      order.push('slow');
      return r;
    });
    const fast = await pool.parse(makeArticlePdf(), 'fast.pdf');
    order.push('fast');
    expect(fast.error).toBeNull();
    expect(fast.title).toBe('A Study of Things That Parse Well');
    const timedOut = await slow;
    expect(timedOut.error?.code).toBe('timeout');
    expect(order).toEqual(['fast', 'slow']);
    // The pool replaced the terminated worker: both slots serve again.
    const again = await Promise.all([
      pool.parse(makeArticlePdf(), 'a.pdf'),
      pool.parse(makeArticlePdf(), 'b.pdf'),
    ]);
    expect(again.map((r) => r.error)).toEqual([null, null]);
  });

  it('answers with an error result after close, and never rejects', async () => {
    pool = new ParserPool({ ...testConfig().parsing, workers: 1 });
    await pool.close();
    const r = await pool.parse(makeArticlePdf(), 'a.pdf');
    expect(r.error?.code).toBe('parser_failed');
  });
});
