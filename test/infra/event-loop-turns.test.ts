// A request made of many queries gives the event loop a turn between them on either driver: PGlite
// answers in the turn that asked (a promise settled without I/O), so an upload's queries and the code
// between them ran as one turn, every other request waiting (2.7 s for 1,000 authors at the form's
// caps, docs/benchmarks/hostile-uploads.md). Counted in turns of the loop, never in time.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { COPY_PIECE_BYTES, copyInPieces } from '../../src/infra/event-loop.ts';
import { COI_WRITE_BATCH_ROWS, importCoi } from '../../src/referee-finder/external-coi.ts';

let t: TestApp;
let org: TestOrg;

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
});
afterAll(async () => t.close());

/** Runs `work`, counting the turns of the event loop (setImmediate callbacks) that ran meanwhile. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    await work();
  } finally {
    done = true;
  }
  return turns;
}

it('gives the loop a turn after each query', async () => {
  const turns = await turnsDuring(async () => {
    for (let i = 0; i < 10; i++) await t.db.query('SELECT 1');
  });
  expect(turns).toBeGreaterThanOrEqual(10);
});

it('gives the loop a turn after each query inside a transaction', async () => {
  const turns = await turnsDuring(() =>
    t.db.transaction(async (tx) => {
      for (let i = 0; i < 10; i++) await tx.query('SELECT 1');
    }),
  );
  expect(turns).toBeGreaterThanOrEqual(10);
});

it('an upload is answered over many turns, not one', async () => {
  let status = 0;
  const turns = await turnsDuring(async () => {
    status = (await upload(t.app, { apiKey: org.apiKey, fields: baseFields() })).statusCode;
  });
  expect(status).toBe(200);
  expect(turns).toBeGreaterThanOrEqual(5);
});

it('copies a file for the parser a piece at a time, a turn of the loop between pieces', async () => {
  // A view into a larger buffer, as a Buffer from a pool may be: the copy owns its memory.
  const backing = new Uint8Array(4 * COPY_PIECE_BYTES + 10);
  for (let i = 0; i < backing.length; i += 4096) backing[i] = (i / 4096) % 251;
  const bytes = backing.subarray(3, 3 + 4 * COPY_PIECE_BYTES + 5);
  let copy: Uint8Array | null = null;
  const turns = await turnsDuring(async () => {
    copy = await copyInPieces(bytes);
  });
  // Five pieces (the last of 5 bytes): a turn before each of the last four.
  expect(turns).toBeGreaterThanOrEqual(4);
  expect(copy!.byteOffset).toBe(0);
  expect(copy!.buffer.byteLength).toBe(bytes.length);
  expect(Buffer.compare(Buffer.from(copy!), Buffer.from(bytes))).toBe(0);
});

it("writes a coi import's rows a batch a statement, a turn of the loop between (one transaction)", async () => {
  // On PGlite one INSERT of 400,000 rows held the loop 17 s (docs/benchmarks/hostile-uploads.md).
  const rows = Array.from({ length: 10 * COI_WRITE_BATCH_ROWS }, (_, i) => ({
    originId: `MS-${i}`,
    authorId: i + 1,
    orcid: null,
    email: null,
  }));
  let inserted = 0;
  const turns = await turnsDuring(async () => {
    ({ inserted } = await importCoi(t.db, org.id, rows, true));
  });
  expect(inserted).toBe(rows.length);
  expect(turns).toBeGreaterThanOrEqual(10);
});
