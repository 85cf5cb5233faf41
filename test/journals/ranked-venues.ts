// The venue ids a new organization's manuscript is recommended, best first: uploaded through the
// real endpoint with the given form fields, then asked of the route (the ranking rules' tests).
import { expect } from 'vitest';
import { createTestOrg, type TestApp } from '../helpers/app.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';

export async function rankedVenueIds(
  t: TestApp,
  originId: string,
  fields: Record<string, string | number>,
): Promise<number[]> {
  const org = await createTestOrg(t);
  const res = await upload(t.app, {
    apiKey: org.apiKey,
    fields: baseFields({ origin_id: originId, ...fields }),
  });
  expect(res.statusCode).toBe(200);
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/external/recommend-journals/${originId}/`,
    headers: org.headers,
  });
  expect(answer.statusCode).toBe(200);
  const list = (answer.json() as { recommended_journals: Array<{ id: number }> }).recommended_journals;
  return list.map((j) => j.id);
}
