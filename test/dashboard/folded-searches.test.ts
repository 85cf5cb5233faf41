// Every dashboard search over names and titles finds them typed without their accents, and with
// accents where the name has none, as fold_text (migration 0104) and foldAccents fold: before, the
// folders', the folder's journal and the manuscripts' searches compared the letters as written
// ("Revista Espanola" found no "Revista Española"), where the groups' and the candidates' folded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { ensureFolder } from '../../src/folders/folders.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';

let t: TestApp;
let org: TestOrg;
let manager: InjectSession;

const get = async (url: string) => (await t.app.inject({ url, headers: { cookie: manager.cookie } })).body;
const q = (words: string) => encodeURIComponent(words);

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  manager = await signInAs(t, org.id, 'account_manager');
});
afterAll(async () => t?.close());

describe('searches over names, accents aside', () => {
  it("a folder's journal search finds a journal's title typed without its accents, and the other way", async () => {
    const folder = await ensureFolder(t.db, org.id, 'Linguistics');
    const { rows: sources } = await t.db.query<{ id: number; title: string }>(
      `INSERT INTO sources (source_key, title, type) VALUES
         ('test:fold-1', 'Revista Española de Lingüística', 'journal'),
         ('test:fold-2', 'Zeitschrift für Müller-Studien', 'journal'),
         ('test:fold-3', 'Plain Ascii Review', 'journal') RETURNING id, title`,
    );
    const titleOf = new Map(sources.map((s) => [String(s.id), s.title]));
    // The titles of the journals listed, by the id each row shows.
    const journals = async (typed: string) =>
      [...(await get(`/dashboard/folders/${folder}/?journal=${q(typed)}`)).matchAll(/<td>(\d+)<\/td>/g)].map(
        (m) => titleOf.get(m[1]!),
      );
    expect(await journals('Revista Espanola')).toEqual(['Revista Española de Lingüística']);
    expect(await journals('LINGUISTICA espanola')).toEqual(['Revista Española de Lingüística']);
    expect(await journals('muller')).toEqual(['Zeitschrift für Müller-Studien']);
    // Typed with accents, found in a title written without them.
    expect(await journals('Plaín ascíi')).toEqual(['Plain Ascii Review']);
  });

  it('the folders, groups and manuscripts searches find names and titles typed without accents', async () => {
    const folder = await ensureFolder(t.db, org.id, 'Revista Española');
    const folders = await get(`/dashboard/folders/?q=${q('revista espanola')}`);
    expect(folders).toContain(`href="/dashboard/folders/${folder}/"`);
    expect(folders).toContain('1 folder matching');

    const group = (await createGroup(t.db, org.id, 'Gutachter Müller')).group_id;
    const groups = await get(`/dashboard/groups/?q=${q('muller')}`);
    expect(groups).toContain(`href="/dashboard/groups/${group}/"`);
    expect(await get(`/dashboard/groups/?q=${q('GUTACHTER MÜLLER')}`)).toContain(
      `href="/dashboard/groups/${group}/"`,
    );

    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: 'ms-fold', title: 'Análisis de la sintaxis del español' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const typed of ['analisis espanol', 'ANALISIS sintax', 'análisis']) {
      expect(await get(`/dashboard/manuscripts/?q=${q(typed)}`), typed).toContain('ms-fold');
    }
    expect(await get(`/dashboard/manuscripts/?q=${q('analisis zebrafish')}`)).not.toContain('ms-fold');
  });
});
