// Candidates who share a name, on a manuscript's page: each row's controls (Mark as referee, Flag a
// conflict, Why this candidate) name the candidate for a screen reader with what tells the rows
// apart, the affiliation, email or ORCID iD the row shows, else the author number it shows; two rows'
// buttons said "Mark as referee Wei Zhang" alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { buttonNames, signInAs } from '../helpers/dashboard.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;
beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Wei Zhang', affiliation: 'Harbin Institute of Technology' }] },
    { authors: [{ name: 'Wei Zhang #2' }] },
    { authors: [{ name: 'Wei Zhang #3' }] },
    { authors: [{ name: 'Nell Neutral' }] },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t?.close());

describe('namesake candidates', () => {
  it("each row's controls are named apart, and a name no other row has stays as it is", async () => {
    const org = await createTestOrg(t);
    await updateSettings(t.db, org.id, { include_without_email: true });
    const editor = await signInAs(t, org.id, 'editor');
    const fields = rankingFields({ origin_id: 'ms-namesakes', title: 'Molecular graphs', abstract: TOPIC });
    const id = (await upload(t.app, { apiKey: org.apiKey, fields })).json().manuscript_id as number;
    const body = (
      await t.app.inject({ url: `/dashboard/manuscripts/${id}/`, headers: { cookie: editor.cookie } })
    ).body;
    const flags = buttonNames(body).filter((n) => n.startsWith('Flag a conflict of interest with'));
    const marks = [
      ...body.matchAll(/Mark as referee<span class="visually-hidden">\s*([\s\S]*?)<\/span/g),
    ].map((m) =>
      m[1]!
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    const whys = [
      ...body.matchAll(/Why this candidate<span class="visually-hidden"> \(([\s\S]*?)\)<\/span>/g),
    ];
    expect(flags.length).toBeGreaterThanOrEqual(4);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(marks).size).toBe(marks.length);
    expect(new Set(whys.map((m) => m[1])).size).toBe(whys.length);
    const [two, three] = [ids.authorId('Wei Zhang #2'), ids.authorId('Wei Zhang #3')];
    expect(flags).toEqual(
      expect.arrayContaining([
        'Flag a conflict of interest with <bdi>Wei Zhang</bdi> (<bdi>Harbin Institute of Technology</bdi>)',
        `Flag a conflict of interest with <bdi>Wei Zhang</bdi> (author ${two})`,
        `Flag a conflict of interest with <bdi>Wei Zhang</bdi> (author ${three})`,
        'Flag a conflict of interest with <bdi>Nell Neutral</bdi>',
      ]),
    );
    expect(marks).toContain(`Wei Zhang (author ${two})`);
  });
});
