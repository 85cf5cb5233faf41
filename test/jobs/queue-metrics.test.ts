// The queue in /metrics: its depth (jobs queued, not yet claimed) and the jobs by state, as scraped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, claimJob, settleJob } from '../../src/jobs/queue.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function sample(name: string): Promise<number | undefined> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  const line = res.body.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('GET /metrics: the job queue', () => {
  it('counts the queued jobs as the queue depth, and every job by state', async () => {
    expect(await sample('refmatch_job_queue_depth')).toBe(0);
    await enqueueJob(t.db, 'corpus relink', {});
    await enqueueJob(t.db, 'corpus relink', {});
    expect(await sample('refmatch_job_queue_depth')).toBe(2);
    const claimed = await claimJob(t.db, 'w', 60_000);
    await settleJob(t.db, claimed!.id, 'w', { state: 'completed', result: {}, progress: null });
    expect(await sample('refmatch_job_queue_depth')).toBe(1);
    expect(await sample('refmatch_jobs{state="queued"}')).toBe(1);
    expect(await sample('refmatch_jobs{state="completed"}')).toBe(1);
    expect(await sample('refmatch_jobs{state="running"}')).toBe(0);
  });
});
