// One organization's slow files, each holding a parser worker for seconds, never keep another
// organization's upload waiting behind all of them: an organization has at most its share of the
// workers (half, at least one), and its other files wait in a line of its own. Before, the pool's one
// line let three such uploads of one organization take both workers and be parsed before the other
// organization's small file. No time is asserted: the order of the answers is. The parse timeout is
// set far above what the small file takes, even on a loaded machine (at 2 s, a CI run under load
// timed the small file out); the slow files need not reach it, only outlast the small one.
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp, type TestOrg } from '../helpers/app.ts';
import { assemblePdf, makeArticlePdf } from '../parsing/make-files.ts';
import { baseFields, upload } from './upload-helpers.ts';
import { parsesPerOrganization } from '../../src/manuscripts/parse-shares.ts';

const WORKERS = 2;
const SLOW_FILES = 3;

let t: TestApp;
let hostile: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  // The content budgets set past the slow file, which they would skip unread
  // (test/parsing/hostile-content.test.ts).
  const parsing = {
    ...testConfig().parsing,
    workers: WORKERS,
    timeoutMs: 15_000,
    maxPageContentBytes: 1024 ** 3,
    maxDocumentContentBytes: 1024 ** 3,
  };
  t = await createTestApp({ parsing, uploadsInFlightPerOrg: 8 });
  hostile = await createTestOrg(t);
  other = await createTestOrg(t);
});
afterAll(async () => t?.close());

/**
 * 60 KB that pdf.js reads for seconds: one page showing one text array (`TJ`) of 8 million items,
 * deflated (5 million took 2.3 s on a quiet machine). The nested-`q` file
 * this test used first is now refused by the pre-check (test/parsing/parse-bounds.test.ts).
 */
function slowTextArrayPdf(): Buffer {
  const content = deflateSync(
    Buffer.from(`BT /F1 12 Tf 72 700 Td [${'(a)1 '.repeat(8_000_000)}] TJ ET`, 'latin1'),
  );
  return Buffer.from(
    assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n${content.toString('latin1')}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]),
  );
}

/** Files the parser holds now: running, queued in the pool, and waiting for their organization's share. */
async function filesHeld(): Promise<number> {
  const { busy, queued } = t.app.refmatch.parser.stats();
  const metrics = await t.app.inject({ url: '/metrics' });
  const waiting = Number(/^refmatch_parses_waiting_for_share (\d+)$/m.exec(metrics.body)?.[1] ?? 0);
  return busy + queued + waiting;
}

describe("an organization's share of the parser workers", () => {
  it('is half the workers, at least one', () => {
    expect([1, 2, 3, 4, 8].map(parsesPerOrganization)).toEqual([1, 1, 1, 2, 4]);
  });

  it("another organization's file is parsed while one organization's slow files wait their turn", async () => {
    const slow = slowTextArrayPdf();
    let slowAnswered = 0;
    const slowUploads = Array.from({ length: SLOW_FILES }, async (_, i) => {
      const res = await upload(t.app, {
        apiKey: hostile.apiKey,
        fields: baseFields({ origin_id: `slow-${i}` }),
        files: [{ name: 'slow.pdf', bytes: slow }],
      });
      slowAnswered++;
      return res;
    });
    for (let i = 0; i < 400 && (await filesHeld()) < SLOW_FILES; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await filesHeld()).toBe(SLOW_FILES);

    const quick = await upload(t.app, {
      apiKey: other.apiKey,
      fields: baseFields({ origin_id: 'quick' }),
      files: [{ name: 'article.pdf', bytes: Buffer.from(makeArticlePdf()) }],
    });
    expect(quick.statusCode).toBe(200);
    expect(quick.json().debug_info.parsed_text_len).toBeGreaterThan(0);
    // Before: answered after two slow files at least (both workers were theirs, the pool's line too).
    expect(slowAnswered).toBeLessThan(2);

    for (const res of await Promise.all(slowUploads)) {
      expect(res.statusCode).toBe(200);
    }
    expect(await filesHeld()).toBe(0);
  });
});
