// The manuscripts pages over HTTP in-process: the list (search, folder, keyset paging), a manuscript's
// page (what was supplied and parsed, candidates with each conflict's evidence, escaped), and marking
// from the page, which the next upload's `marked_by` shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import {
  buttonNames,
  createTestUser,
  injectForm,
  injectSignIn,
  type InjectSession,
  signInAs,
} from '../helpers/dashboard.ts';
import { baseFields, rankingFields, fixture, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { checkFolderSettings, ensureFolder, saveFolderSettings } from '../../src/folders/folders.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';
import { saveWebhook } from '../../src/webhooks/store.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;
let org: TestOrg;
let editor: InjectSession;
let viewer: InjectSession;
let editorEmail: string;
const ADA_ORCID = '0000-0002-9079-593X';
const SHARED = 'Graph neural networks for molecules, shared by Ada and Cole';
const TITLE = 'Message passing graph neural networks <script>alert("x")</script>';

interface Candidate {
  author_id: number;
  marked: boolean;
  marked_by: string | null;
  coauth_conflicts: { exists: boolean };
  external_coi: { exists: boolean };
}

async function uploadMs(extra: Record<string, string | number> = {}) {
  const fields = rankingFields({
    origin_id: 'ms-dash',
    title: TITLE,
    abstract: TOPIC,
    author1_name: 'Ada Expert',
    author1_orcid: ADA_ORCID,
    ...extra,
  });
  const res = await upload(t.app, { apiKey: org.apiKey, fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { manuscript_id: number; candidates: Candidate[] };
}

const get = (session: InjectSession, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    {
      authors: [{ name: 'Ada Expert', orcid: ADA_ORCID }, { name: 'Cole Coauthor' }],
      title: SHARED,
      year: 2020,
    },
    { authors: [{ name: 'Ada Expert', orcid: ADA_ORCID }] },
    { authors: [{ name: 'Cole Coauthor' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Nell Neutral' }] },
  ]);
  await t.app.refmatch.index.refresh();
  org = await createTestOrg(t);
  const ed = await createTestUser(t.db, org.id, 'editor');
  editorEmail = ed.email;
  editor = await injectSignIn(t.app, ed.email);
  viewer = await signInAs(t, org.id, 'viewer');
});
afterAll(async () => t?.close());

describe('a manuscript page', () => {
  it('shows what was supplied and used, escaped, and each conflict with its evidence', async () => {
    const { manuscript_id: id, candidates } = await uploadMs();
    const cole = candidates.find((c) => c.author_id === ids.authorId('Cole Coauthor'))!;
    expect(cole.coauth_conflicts).toEqual({ exists: true });

    const page = await get(viewer, `/dashboard/manuscripts/${id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page.body).toContain('What was supplied, what was parsed from the file, and what was used');
    // The co-authorship's evidence: the shared work, linked, with its year.
    const row = page.body.slice(page.body.indexOf(`id="candidate-${cole.author_id}"`));
    const coleRow = row.slice(0, row.indexOf('</tr>'));
    expect(coleRow).toContain('Co-authorship');
    expect(coleRow).toContain(`http://refmatch.test/works/${ids.workId(SHARED)}`);
    expect(coleRow).toContain(`${SHARED}</bdi></a> (2020)`);
    // The co-author is named.
    expect(coleRow).toMatch(/Ada Expert<\/bdi><\/a\s*>, an author of the manuscript/);
    // A viewer sees no marking button.
    expect(page.body).not.toContain('Mark as referee');

    // A folder that highlights a group: the candidate's row names the group.
    const board = (
      await t.db.query<{ id: number }>(
        `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Editorial board') RETURNING id`,
        [org.id],
      )
    ).rows[0]!.id;
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, linked_author_id)
       VALUES ($1, 'nell-1', $2, 'Nell Neutral', $3)`,
      [board, org.id, ids.authorId('Nell Neutral')],
    );
    const folder = await ensureFolder(t.db, org.id, 'BOARD');
    await saveFolderSettings(
      t.db,
      folder,
      await checkFolderSettings(t.db, org.id, {
        groupIds: [board],
        effect: 'highlight',
        boostMultiplier: null,
      }),
    );
    const boarded = await uploadMs({ origin_id: 'ms-board', folder: 'BOARD' });
    const boardPage = (await get(viewer, `/dashboard/manuscripts/${boarded.manuscript_id}/`)).body;
    const nellAt = boardPage.indexOf(`id="candidate-${ids.authorId('Nell Neutral')}"`);
    expect(boardPage.slice(nellAt, boardPage.indexOf('</tr>', nellAt))).toMatch(
      />\s*<bdi>Editorial board<\/bdi><\/a\s*> \(<bdi>nell-1<\/bdi>\)/,
    );
    // With the boost effect, the candidate's explanation says its score was multiplied.
    await saveFolderSettings(
      t.db,
      folder,
      await checkFolderSettings(t.db, org.id, { groupIds: [board], effect: 'boost', boostMultiplier: 2 }),
    );
    const boosted = await uploadMs({ origin_id: 'ms-board', folder: 'BOARD' });
    const boostedPage = (await get(viewer, `/dashboard/manuscripts/${boosted.manuscript_id}/`)).body;
    const nellRow = boostedPage.slice(boostedPage.indexOf(`id="candidate-${ids.authorId('Nell Neutral')}"`));
    expect(nellRow.slice(0, nellRow.indexOf('</tr>')).replace(/\s+/g, ' ')).toContain(
      "score multiplied by 2, the folder's boost",
    );
    expect(boostedPage).toContain(`id="candidate-${ids.authorId('Cole Coauthor')}"`);
    const unboosted = boostedPage.slice(
      boostedPage.indexOf(`id="candidate-${ids.authorId('Cole Coauthor')}"`),
    );
    expect(unboosted.slice(0, unboosted.indexOf('</tr>'))).not.toContain('score multiplied');
  });

  it("says what a candidate's score is: no unit, no maximum, this upload's candidates only", async () => {
    const { manuscript_id: id } = await uploadMs();
    const page = (await get(editor, `/dashboard/manuscripts/${id}/`)).body.replace(/\s+/g, ' ');
    expect(page).toContain('Higher is closer; it has no unit and no maximum');
    expect(page).toContain("compares this upload's candidates only, not manuscripts");
  });

  it("says on a candidate's row that their name is a manuscript author's, given by name only", async () => {
    // Nell sent by name alone: not settled as the author (a name alone settles no one), so a candidate.
    const { manuscript_id: id, candidates } = await uploadMs({
      origin_id: 'ms-namesake',
      authors_count: 2,
      author2_name: 'Nell Neutral',
    });
    const nellId = ids.authorId('Nell Neutral');
    expect(candidates.map((c) => c.author_id)).toContain(nellId);
    const body = (await get(viewer, `/dashboard/manuscripts/${id}/`)).body;
    const rowOf = (authorId: number) => {
      const start = body.indexOf(`id="candidate-${authorId}"`);
      return body.slice(start, body.indexOf('</tr>', start)).replace(/\s+/g, ' ');
    };
    expect(rowOf(nellId)).toContain(
      "Named as the manuscript's author <bdi>Nell Neutral</bdi>: the name alone does not show whether this is the same person",
    );
    expect(rowOf(ids.authorId('Cole Coauthor'))).not.toContain('Named as the manuscript');
  });

  it('a candidate marked while in conflict with the manuscript: the message says which conflicts', async () => {
    const { manuscript_id: id } = await uploadMs({ origin_id: 'ms-conflicted-mark' });
    const coleId = ids.authorId('Cole Coauthor');
    const nellId = ids.authorId('Nell Neutral');
    const mark = async (authorId: number) => {
      await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${authorId}/mark/`);
      const page = (await get(editor, `/dashboard/manuscripts/${id}/`)).body;
      return page.slice(page.indexOf('class="flash'), page.indexOf('</p>', page.indexOf('class="flash')));
    };
    // Cole co-wrote a work with Ada, the manuscript's author: said, where the mark passed in silence.
    expect(await mark(coleId)).toContain(
      'Their row lists a conflict with this manuscript: Co-authorship (see its evidence).',
    );
    expect(await mark(nellId)).not.toContain('lists a conflict');
  });

  it('says why a parsed cell is empty: not found in the file, no file sent', async () => {
    // The deep-rules manuscript has no abstract section (it opens with its authors, then the
    // introduction): its page showed "—", which read as if the page had lost the parsed abstract.
    const cellOf = (body: string, label: string) => {
      // The row's header, whatever attributes it carries (role="rowheader" since the table stacks
      // on a phone).
      const at = body.search(new RegExp(`<th scope="row"[^>]*>${label}</th>`));
      expect(at).toBeGreaterThan(0);
      return body.slice(at, body.indexOf('</tr>', at)).replace(/\s+/g, ' ');
    };
    const fields = baseFields({ origin_id: 'ms-parsed-cells' });
    const withFile = await upload(t.app, {
      apiKey: org.apiKey,
      fields,
      files: [{ name: 'manuscript.pdf', bytes: fixture('manuscripts/deep-rules/manuscript.pdf') }],
    });
    expect(withFile.statusCode, withFile.body).toBe(200);
    const page = (await get(viewer, `/dashboard/manuscripts/${withFile.json().manuscript_id}/`)).body;
    expect(cellOf(page, 'Title')).toContain('Ten Quick Tips for Deep Learning in Biology');
    expect(cellOf(page, 'Abstract')).toContain('not found in the file');
    // A count of the file's text written as the other counts are, thousands separated: it read
    // "81760 characters".
    expect(page).toMatch(/\d{1,3}(,\d{3})+ characters, \d+ references read/);
    const without = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: 'ms-no-file' }),
    });
    const bare = (await get(viewer, `/dashboard/manuscripts/${without.json().manuscript_id}/`)).body;
    expect(cellOf(bare, 'Abstract')).toContain('no file sent');
    expect(cellOf(bare, 'Abstract')).not.toContain('not found in the file');
  });

  it('says which authors groups settings the last upload ranked with, whatever the folder says now', async () => {
    const noteOf = async (manuscriptId: number) => {
      const body = (await get(viewer, `/dashboard/manuscripts/${manuscriptId}/`)).body;
      const at = body.indexOf('id="groups-settings"');
      expect(at).toBeGreaterThan(0);
      return body.slice(at, body.indexOf('</p>', at)).replace(/\s+/g, ' ');
    };
    const plain = await uploadMs({ origin_id: 'ms-settings', folder: 'PLAIN' });
    expect(await noteOf(plain.manuscript_id)).toContain('none: ranked over the whole corpus');

    const group = (
      await t.db.query<{ id: number }>(
        `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Board <b>') RETURNING id`,
        [org.id],
      )
    ).rows[0]!.id;
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, linked_author_id)
       VALUES ($1, 'nell-2', $2, 'Nell Neutral', $3)`,
      [group, org.id, ids.authorId('Nell Neutral')],
    );
    const folder = await ensureFolder(t.db, org.id, 'LIMITED');
    const settle = async (effect: 'limit_to' | 'boost', boostMultiplier: number | null) =>
      saveFolderSettings(
        t.db,
        folder,
        await checkFolderSettings(t.db, org.id, { groupIds: [group], effect, boostMultiplier }),
      );
    await settle('limit_to', null);
    const limited = await uploadMs({ origin_id: 'ms-settings', folder: 'LIMITED' });
    expect(limited.candidates.map((c) => c.author_id)).toEqual([ids.authorId('Nell Neutral')]);
    const note = await noteOf(limited.manuscript_id);
    expect(note).toContain('limited to the members of');
    expect(note).toContain(`<a href="/dashboard/groups/${group}/"><bdi>Board &lt;b&gt;</bdi></a>`);
    expect(note).toContain(`<a href="/dashboard/folders/${folder}/">the folder's settings now</a>`);

    // The folder changes afterwards: the page still tells what the last upload ran with.
    await settle('boost', 1.5);
    expect(await noteOf(limited.manuscript_id)).toContain('limited to the members of');
    const boosted = await uploadMs({ origin_id: 'ms-settings', folder: 'LIMITED' });
    expect(await noteOf(boosted.manuscript_id)).toContain('boost ×1.5 for the members of');

    // A group deleted since is named as it was then, without a link.
    await t.db.query('DELETE FROM authors_groups WHERE id = $1', [group]);
    const deleted = await noteOf(boosted.manuscript_id);
    expect(deleted).toContain(
      `<bdi>Board &lt;b&gt;</bdi> <span class="muted">(deleted group ${group})</span>`,
    );
    expect(deleted).not.toContain(`/dashboard/groups/${group}/`);

    // Candidates stored before the settings were kept (migration 0102) say they are not known.
    await t.db.query(
      'UPDATE manuscript_candidates SET authors_groups_settings = NULL WHERE manuscript_id = $1',
      [boosted.manuscript_id],
    );
    expect(await noteOf(boosted.manuscript_id)).toContain('not recorded (ranked before they were kept)');
  });

  it("shows why each candidate is there: the score's parts, and the terms and works behind it as shares", async () => {
    const { manuscript_id: id } = await uploadMs();
    const page = await get(viewer, `/dashboard/manuscripts/${id}/`);
    const row = page.body.slice(page.body.indexOf(`id="candidate-${ids.authorId('Cole Coauthor')}"`));
    const coleRow = row.slice(0, row.indexOf('</tr>'));
    const why = coleRow
      .slice(coleRow.indexOf('<details class="why">'), coleRow.indexOf('</details>'))
      .replace(/\s+/g, ' ');
    expect(why).toContain('Why this candidate');
    expect(why).toMatch(/Match of the best works \d\.\d{3}/);
    // The terms the works matched, as the manuscript's phrases, most contributing first, as shares.
    const terms = [...why.matchAll(/<em>([^<]+)<\/em> (\d+)%/g)].map((m) => ({
      label: m[1]!,
      share: Number(m[2]),
    }));
    expect(terms.map((t) => t.label)).toContain('message passing');
    expect(terms.map((t) => t.label)).not.toContain('passing');
    expect(terms.every((t, i) => i === 0 || t.share <= terms[i - 1]!.share)).toBe(true);
    expect(terms.reduce((n, t) => n + t.share, 0)).toBeLessThanOrEqual(100 + terms.length);
    // The works behind the score: Cole's, linked and titled, each with its share and terms.
    expect(why).toContain(`http://refmatch.test/works/${ids.workId(SHARED)}`);
    const shares = [...why.matchAll(/(\d+)% of the evidence/g)].map((m) => Number(m[1]));
    expect(shares.length).toBe(2);
    expect(shares.reduce((n, x) => n + x, 0)).toBeGreaterThanOrEqual(99);
    expect(why).toMatch(/% of the evidence, on [a-z]/);

    // A work among the row's relevant articles is named as they name it (its title at the upload);
    // any other is read from the corpus when the page is shown.
    const whyOf = async () => {
      const { rows } = await t.db.query<{
        c: { why: { works: Array<{ id: number }> }; relevant_articles: Array<{ id: number }> };
      }>(
        `SELECT c FROM manuscript_candidates, jsonb_array_elements(candidates) c
          WHERE manuscript_id = $1 AND (c->>'author_id')::int = $2`,
        [id, ids.authorId('Cole Coauthor')],
      );
      return rows[0]!.c;
    };
    const cole = await whyOf();
    expect(cole.relevant_articles.map((a) => a.id)).toContain(ids.workId(SHARED));
    expect(cole.why.works.map((w) => w.id)).toContain(ids.workId(SHARED));
    await t.db.query(`UPDATE works SET title = 'Renamed since the upload' WHERE id = $1`, [
      ids.workId(SHARED),
    ]);
    const other = (
      await t.db.query<{ id: number; title: string }>(
        'SELECT id, title FROM works WHERE id <> ALL($1::int[]) ORDER BY id LIMIT 1',
        [cole.relevant_articles.map((a) => a.id)],
      )
    ).rows[0]!;
    const otherAt = cole.why.works.findIndex((w) => w.id !== ids.workId(SHARED));
    await t.db.query(
      `UPDATE manuscript_candidates SET candidates = (
          SELECT jsonb_agg(CASE WHEN (c->>'author_id')::int = $2
                                THEN jsonb_set(c, ARRAY['why', 'works', $3::text, 'id'], to_jsonb($4::int)) ELSE c END
                           ORDER BY n)
            FROM jsonb_array_elements(candidates) WITH ORDINALITY AS e(c, n))
        WHERE manuscript_id = $1`,
      [id, ids.authorId('Cole Coauthor'), otherAt, other.id],
    );
    const named = await get(viewer, `/dashboard/manuscripts/${id}/`);
    const namedWhy = named.body.slice(named.body.indexOf(`id="candidate-${ids.authorId('Cole Coauthor')}"`));
    const namedDetails = namedWhy.slice(
      namedWhy.indexOf('<details class="why">'),
      namedWhy.indexOf('</details>'),
    );
    expect(namedDetails).toContain(`${SHARED}</bdi></a>`);
    expect(namedDetails).not.toContain('Renamed since the upload');
    expect(namedDetails).toContain(`http://refmatch.test/works/${other.id}"><bdi>${other.title}</bdi></a>`);
    await t.db.query('UPDATE works SET title = $2 WHERE id = $1', [ids.workId(SHARED), SHARED]);

    // A work no longer in the corpus is named by its id.
    await t.db.query(
      `UPDATE manuscript_candidates
          SET candidates = jsonb_set(candidates, '{0,why,works,0,id}', '2147483000')
        WHERE manuscript_id = $1`,
      [id],
    );
    const gone = await get(viewer, `/dashboard/manuscripts/${id}/`);
    expect(gone.body).toContain('Work 2147483000 (no longer in the corpus)');

    // Candidates stored before explanations were kept show without one.
    await t.db.query(
      `UPDATE manuscript_candidates SET candidates = (SELECT jsonb_agg(c - 'why') FROM jsonb_array_elements(candidates) c)
        WHERE manuscript_id = $1`,
      [id],
    );
    const old = await get(viewer, `/dashboard/manuscripts/${id}/`);
    expect(old.statusCode).toBe(200);
    expect(old.body).toContain(`id="candidate-${ids.authorId('Cole Coauthor')}"`);
    expect(old.body).not.toContain('Why this candidate');
  });

  it("an upload that found no candidate says what the organization's settings leave out", async () => {
    const strict = await createTestOrg(t);
    await updateSettings(t.db, strict.id, { include_without_email: false });
    const session = await signInAs(t, strict.id, 'viewer');
    const fields = rankingFields({ origin_id: 'ms-strict', title: TITLE, abstract: TOPIC });
    const res = await upload(t.app, { apiKey: strict.apiKey, fields });
    expect(res.json<{ candidates: unknown[] }>().candidates).toEqual([]);
    const page = await get(
      session,
      `/dashboard/manuscripts/${res.json<{ manuscript_id: number }>().manuscript_id}/`,
    );
    expect(page.body.replace(/\s+/g, ' ')).toContain(
      'The last upload found no candidate. The <a href="/dashboard/settings/">settings</a> now leave out candidates without an email.',
    );
  });

  it('a conflicts filter that finds none says when the settings left such candidates out of the upload', async () => {
    // QA round 14: "With any conflict" empty read as "nobody here has a conflict".
    const strict = await createTestOrg(t);
    await updateSettings(t.db, strict.id, { include_conflicts: false });
    const session = await signInAs(t, strict.id, 'viewer');
    const fields = rankingFields({ origin_id: 'ms-no-conflicts', title: TITLE, abstract: TOPIC });
    const id = (await upload(t.app, { apiKey: strict.apiKey, fields })).json<{ manuscript_id: number }>()
      .manuscript_id;
    const NOTE =
      'The <a href="/dashboard/settings/">settings</a> now leave out candidates with a conflict of interest';
    for (const conflicts of ['any', 'coauth_conflicts']) {
      const page = await get(session, `/dashboard/manuscripts/${id}/?conflicts=${conflicts}`);
      expect(page.body, conflicts).toContain('No candidate matches these filters.');
      expect(page.body.replace(/\s+/g, ' '), conflicts).toContain(NOTE);
    }
    // Not said of a filter that is not about conflicts, nor where the settings include them.
    const byName = await get(session, `/dashboard/manuscripts/${id}/?find=zzzz`);
    expect(byName.body).toContain('No candidate matches these filters.');
    expect(byName.body.replace(/\s+/g, ' ')).not.toContain(NOTE);
    const { manuscript_id: other } = await uploadMs({ origin_id: 'ms-with-conflicts' });
    const included = await get(editor, `/dashboard/manuscripts/${other}/?conflicts=retracted_articles`);
    expect(included.body).toContain('No candidate matches these filters.');
    expect(included.body.replace(/\s+/g, ' ')).not.toContain(NOTE);
  });

  it('filters and sorts the candidates', async () => {
    const { manuscript_id: id } = await uploadMs();
    const withConflicts = await get(editor, `/dashboard/manuscripts/${id}/?conflicts=coauth_conflicts`);
    expect(withConflicts.body).toContain(`id="candidate-${ids.authorId('Cole Coauthor')}"`);
    expect(withConflicts.body).not.toContain(`id="candidate-${ids.authorId('Nell Neutral')}"`);
    const without = await get(editor, `/dashboard/manuscripts/${id}/?conflicts=none`);
    expect(without.body).not.toContain(`id="candidate-${ids.authorId('Cole Coauthor')}"`);
    expect(without.body).toContain(`id="candidate-${ids.authorId('Nell Neutral')}"`);
    const byName = await get(editor, `/dashboard/manuscripts/${id}/?sort=name&order=desc`);
    const nell = byName.body.indexOf(`id="candidate-${ids.authorId('Nell Neutral')}"`);
    const cole = byName.body.indexOf(`id="candidate-${ids.authorId('Cole Coauthor')}"`);
    expect(nell).toBeGreaterThan(0);
    expect(nell).toBeLessThan(cole);
    expect(byName.body).toContain('aria-sort="descending"');
    const found = await get(editor, `/dashboard/manuscripts/${id}/?find=nell`);
    expect(found.body).toContain('1 of ');
    const none = await get(editor, `/dashboard/manuscripts/${id}/?find=zzzz&marked=no&sort=name&order=desc`);
    expect(none.body).toContain('No candidate matches these filters.');
    // A way back to every candidate, the sort kept, the filters dropped.
    const all = /<a\s+href="([^"]*)"\s*>Show all (\d+) candidates<\/a/.exec(none.body);
    expect(all?.[1]).toBe(`/dashboard/manuscripts/${id}/?sort=name&amp;order=desc#candidates`);
    expect((await get(editor, `/dashboard/manuscripts/${id}/?sort=name&order=desc`)).body).toContain(
      `${all?.[2]} of ${all?.[2]}`,
    );
    // Each word anywhere, accents aside: the whole text as one piece found nothing.
    for (const find of ['neutral nell', 'NËLL', 'nell  neutral']) {
      const words = await get(editor, `/dashboard/manuscripts/${id}/?find=${encodeURIComponent(find)}`);
      expect(words.body, find).toContain(`id="candidate-${ids.authorId('Nell Neutral')}"`);
      expect(words.body, find).toContain('1 of ');
    }
    const oneWordWrong = await get(editor, `/dashboard/manuscripts/${id}/?find=nell%20zzzz`);
    expect(oneWordWrong.body).toContain('No candidate matches these filters.');
    expect(found.body).not.toContain('No candidate matches these filters.');
  });

  it('a second mark of a candidate by the same editor (another tab) changes nothing and sends no second event', async () => {
    const { manuscript_id: id } = await uploadMs({ origin_id: 'ms-twice' });
    await saveWebhook(
      t.db,
      org.id,
      { url: 'https://hooks.example.org/twice', secret: null, enabled: true },
      {
        allowPrivateAddresses: false,
      },
    );
    const events = async () =>
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_outbox
            WHERE organization_id = $1 AND event = 'mark_as_proposal_referee' AND data->>'origin_id' = 'ms-twice'`,
          [org.id],
        )
      ).rows[0]!.n;
    const nellId = ids.authorId('Nell Neutral');
    const url = `/dashboard/manuscripts/${id}/candidates/${nellId}/mark/`;
    expect((await injectForm(t.app, editor, url)).statusCode).toBe(303);
    expect(await events()).toBe(1);
    // The same button again, from a page shown before the mark: it queued a second "marked" event.
    expect((await injectForm(t.app, editor, url)).statusCode).toBe(303);
    expect(await events()).toBe(1);
    expect((await get(editor, `/dashboard/manuscripts/${id}/`)).body).toContain(
      'was already marked as referee by you.',
    );
    // Another editor's mark is a change (marked_by becomes theirs): one event.
    const other = await signInAs(t, org.id, 'editor');
    expect((await injectForm(t.app, other, url)).statusCode).toBe(303);
    expect(await events()).toBe(2);
    await t.db.query('UPDATE webhooks SET enabled = false WHERE organization_id = $1', [org.id]);
  });

  it('an editor marks and unmarks a candidate; the next upload shows marked_by, then no mark', async () => {
    const { manuscript_id: id } = await uploadMs();
    const nellId = ids.authorId('Nell Neutral');
    const marked = await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${nellId}/mark/`);
    expect(marked.statusCode).toBe(303);
    const page = await get(editor, `/dashboard/manuscripts/${id}/`);
    expect(page.body).toContain(`Marked by ${editorEmail.toLowerCase()}`);
    const next = await uploadMs();
    expect(next.candidates.find((c) => c.author_id === nellId)).toMatchObject({
      marked: true,
      marked_by: editorEmail.toLowerCase(),
    });
    // The viewer may not mark.
    const refused = await injectForm(
      t.app,
      viewer,
      `/dashboard/manuscripts/${id}/candidates/${nellId}/unmark/`,
    );
    expect(refused.statusCode).toBe(403);
    await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${nellId}/unmark/`);
    const after = await uploadMs();
    expect(after.candidates.find((c) => c.author_id === nellId)).toMatchObject({
      marked: false,
      marked_by: null,
    });
  });

  it("an editor flags a candidate's conflict of interest; the next upload reports it (external_coi), then not once the flag is off", async () => {
    const { manuscript_id: id } = await uploadMs();
    const nellId = ids.authorId('Nell Neutral');
    const nellRow = (body: string) => {
      const start = body.indexOf(`id="candidate-${nellId}"`);
      return body.slice(start, body.indexOf('</tr>', start));
    };
    const before = await get(editor, `/dashboard/manuscripts/${id}/`);
    expect(buttonNames(nellRow(before.body))).toContain(
      'Flag a conflict of interest with <bdi>Nell Neutral</bdi>',
    );
    // A viewer sees no button, and may not post.
    expect(nellRow((await get(viewer, `/dashboard/manuscripts/${id}/`)).body)).not.toContain(
      'Flag a conflict',
    );
    const flagUrl = `/dashboard/manuscripts/${id}/candidates/${nellId}/conflict/`;
    expect((await injectForm(t.app, viewer, flagUrl)).statusCode).toBe(403);

    const flagged = await injectForm(t.app, editor, `${flagUrl}?conflicts=none`);
    // "Without conflicts" lists Nell no more, nor anyone else (Cole co-wrote with Ada): to the
    // message, above the table.
    expect(flagged.headers.location).toBe(`/dashboard/manuscripts/${id}/?conflicts=none#candidates-message`);
    const page = await get(editor, `/dashboard/manuscripts/${id}/`);
    expect(page.body).toContain('is flagged as a conflict of interest for this manuscript');
    expect(nellRow(page.body)).toContain('Flagged by an editor: the next upload reports this conflict.');
    expect(nellRow(page.body)).toContain('Remove conflict flag');
    // Not "None found" above the flag; and a viewer, who has no button, reads the flag too, where
    // their row said "None found" alone in a list the flag filters.
    expect(nellRow(page.body)).not.toContain('None found');
    const viewersRow = nellRow(
      (await get(viewer, `/dashboard/manuscripts/${id}/?conflicts=external_coi`)).body,
    );
    expect(viewersRow).toContain('Flagged by an editor: the next upload reports this conflict.');
    expect(viewersRow).not.toContain('None found');
    // Filtered by conflict, the flagged candidate is one before the next upload reports it: "Without
    // conflicts" (where referees are picked) no longer lists them, the organization's flag does.
    const filtered = (conflicts: string) =>
      get(editor, `/dashboard/manuscripts/${id}/?conflicts=${conflicts}`);
    expect((await filtered('none')).body).not.toContain(`id="candidate-${nellId}"`);
    expect((await filtered('any')).body).toContain(`id="candidate-${nellId}"`);
    expect((await filtered('external_coi')).body).toContain(`id="candidate-${nellId}"`);
    // Flagging again (a second tab) changes nothing and says so.
    await injectForm(t.app, editor, flagUrl);
    expect((await get(editor, `/dashboard/manuscripts/${id}/`)).body).toContain('was already flagged');

    const next = await uploadMs();
    expect(next.candidates.find((c) => c.author_id === nellId)).toMatchObject({
      external_coi: { exists: true },
    });
    const shown = nellRow((await get(editor, `/dashboard/manuscripts/${id}/`)).body);
    expect(shown).toContain('Organization&#39;s flag');
    expect(shown).not.toContain('the next upload reports this conflict');

    await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${nellId}/no-conflict/`);
    const after = await uploadMs();
    expect(after.candidates.find((c) => c.author_id === nellId)).toMatchObject({
      external_coi: { exists: false },
    });
    expect(nellRow((await get(editor, `/dashboard/manuscripts/${id}/`)).body)).toContain('Flag a conflict');
  });

  it("comes back to the row now where a candidate's was when the page's filters no longer list them", async () => {
    const { manuscript_id: id } = await uploadMs();
    const coleId = ids.authorId('Cole Coauthor');
    const nellId = ids.authorId('Nell Neutral');
    const markUrl = (authorId: number, query: string) =>
      `/dashboard/manuscripts/${id}/candidates/${authorId}/mark/${query}`;
    // Under "Not marked", by name: Cole, then Nell. Cole marked leaves the list: back at Nell's row,
    // where it came back to Cole's anchor, gone from the page, at its top.
    const notMarked = '?marked=no&sort=name&order=asc';
    const first = await injectForm(t.app, editor, markUrl(coleId, notMarked));
    // At the message, said just above Nell's row (not at the page's top, out of view of the row).
    expect(first.headers.location).toBe(
      `/dashboard/manuscripts/${id}/${notMarked}#candidate-${nellId}-message`,
    );
    const page = await get(editor, first.headers.location as string);
    expect(page.body).toMatch(
      new RegExp(
        `<tr class="row-message">\\s*<td colspan="9"><p\\s+id="candidate-${nellId}-message"[^>]*tabindex="-1"[^>]*>[^<]*<bdi>Cole Coauthor</bdi> is marked as referee\\.[^<]*This page&#39;s filters no longer list them: here is the next candidate\\.\\s*</p></td>\\s*</tr>\\s*<tr id="candidate-${nellId}">`,
      ),
    );
    expect(page.body.match(/no longer list them/g)).toHaveLength(1);
    // Nell, the last row, marked: back at the one before, if still listed; here nobody is: the table.
    const last = await injectForm(t.app, editor, markUrl(nellId, notMarked));
    expect(last.headers.location).toBe(`/dashboard/manuscripts/${id}/${notMarked}#candidates-message`);
    expect((await get(editor, last.headers.location as string)).body).toMatch(
      /<h2 id="candidates">Candidates<\/h2>\s*<p\s+id="candidates-message"[^>]*>[^<]*<bdi>Nell Neutral<\/bdi> is marked as referee\./,
    );
    // Under "Marked", by name descending (Nell, Cole), Nell unmarked: back at Cole, the one after.
    const markedDesc = '?marked=yes&sort=name&order=desc';
    const unmarked = await injectForm(
      t.app,
      editor,
      `/dashboard/manuscripts/${id}/candidates/${nellId}/unmark/${markedDesc}`,
    );
    expect(unmarked.headers.location).toBe(
      `/dashboard/manuscripts/${id}/${markedDesc}#candidate-${coleId}-message`,
    );
    await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${coleId}/unmark/`);
    // Unfiltered, the row stays where it was: back at the message, said under the button pressed in
    // Nell's row (it was at the page's top, out of view of the row), saying nothing of filters.
    const plain = await injectForm(t.app, editor, markUrl(nellId, ''));
    expect(plain.headers.location).toBe(`/dashboard/manuscripts/${id}/#referee-${nellId}-message`);
    const stayed = (await get(editor, `/dashboard/manuscripts/${id}/`)).body;
    expect(stayed).not.toContain('no longer list them');
    expect(stayed).toMatch(
      new RegExp(
        `<tr id="candidate-${nellId}">(?:(?!<tr|</tr>).)*id="referee-${nellId}"(?:(?!<tr|</tr>).)*</form>\\s*<p\\s+id="referee-${nellId}-message"[^>]*tabindex="-1"[^>]*>\\s*<bdi>Nell Neutral</bdi> is marked as referee\\.\\s*</p>\\s*</td>\\s*</tr>`,
        's',
      ),
    );
    expect(stayed.match(/is marked as referee/g)).toHaveLength(1);
    // A flag's message, likewise under its button.
    const flagged = await injectForm(
      t.app,
      editor,
      `/dashboard/manuscripts/${id}/candidates/${nellId}/conflict/`,
    );
    expect(flagged.headers.location).toBe(`/dashboard/manuscripts/${id}/#conflict-${nellId}-message`);
    expect((await get(editor, `/dashboard/manuscripts/${id}/`)).body).toMatch(
      new RegExp(
        `id="conflict-${nellId}"(?:(?!<tr|</td>).)*</form>\\s*<p\\s+id="conflict-${nellId}-message"[^>]*>\\s*<bdi>Nell Neutral</bdi> is flagged`,
        's',
      ),
    );
    await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${nellId}/no-conflict/`);
    await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${nellId}/unmark/`);
  });

  it('marks only the candidates the page lists, comes back to the page as filtered, and shows marks made elsewhere', async () => {
    const { manuscript_id: id } = await uploadMs();
    const nellId = ids.authorId('Nell Neutral');
    // Back to the page with its filters and sort.
    const query = '?find=nell&sort=name&order=asc';
    const marked = await injectForm(
      t.app,
      editor,
      `/dashboard/manuscripts/${id}/candidates/${nellId}/mark/${query}`,
    );
    expect(marked.statusCode).toBe(303);
    // Back to the marked candidate's row, so that an editor marking several keeps their place.
    expect(marked.headers.location).toBe(`/dashboard/manuscripts/${id}/${query}#referee-${nellId}-message`);
    const filtered = await get(editor, `/dashboard/manuscripts/${id}/${query}`);
    expect(filtered.body).toContain(
      `action="/dashboard/manuscripts/${id}/candidates/${nellId}/unmark/?find=nell&amp;sort=name&amp;order=asc"`,
    );
    await injectForm(t.app, editor, `/dashboard/manuscripts/${id}/candidates/${nellId}/unmark/`);

    // An author who is not among the candidates (Ada wrote the manuscript; a page loaded before a
    // re-upload may still offer one) is not marked: the page says so, with the candidates as they are.
    const outsider = ids.authorId('Ada Expert');
    const refused = await injectForm(
      t.app,
      editor,
      `/dashboard/manuscripts/${id}/candidates/${outsider}/mark/${query}`,
    );
    expect(refused.statusCode).toBe(303);
    // Without #candidates, which would win over the message's autofocus (out of view at the top).
    expect(refused.headers.location).toBe(`/dashboard/manuscripts/${id}/${query}`);
    expect((await get(editor, `/dashboard/manuscripts/${id}/`)).body).toContain(
      'is no longer among this manuscript',
    );
    expect(
      (await t.db.query('SELECT 1 FROM manuscript_marks WHERE author_id = $1', [outsider])).rowCount,
    ).toBe(0);
    // A mark made elsewhere (the CLI marks any author) is listed apart, and can be taken off.
    await t.db.query(
      `INSERT INTO manuscript_marks (manuscript_id, author_id, marked_by) VALUES ($1, $2, 'cli@x.test')`,
      [id, outsider],
    );
    const page = await get(editor, `/dashboard/manuscripts/${id}/${query}`);
    const also = page.body.slice(page.body.indexOf('Also marked as referees'));
    expect(also).toContain(`<bdi>Ada Expert</bdi> (author ${outsider}), marked by <bdi>cli@x.test</bdi>`);
    // Its unmark comes back to the page as it was filtered and sorted: it came back unfiltered.
    const unmarkAction = `/dashboard/manuscripts/${id}/candidates/${outsider}/unmark/${query}`;
    expect(also).toContain(`action="${unmarkAction.replaceAll('&', '&amp;')}"`);
    const unmarked = await injectForm(t.app, editor, unmarkAction);
    expect(unmarked.headers.location).toBe(`/dashboard/manuscripts/${id}/${query}#candidates`);
    expect((await get(editor, `/dashboard/manuscripts/${id}/`)).body).not.toContain(
      'Also marked as referees',
    );

    // An upload without candidates leaves the marks, and the page still lists them.
    const excluded = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: 'ms-dash', title: TITLE, abstract: TOPIC, author1_name: 'Ada Expert' }),
    });
    expect(excluded.json<{ candidates: null }>().candidates).toBeNull();
    await t.db.query(
      `INSERT INTO manuscript_marks (manuscript_id, author_id, marked_by) VALUES ($1, $2, 'cli@x.test')`,
      [id, nellId],
    );
    const none = await get(editor, `/dashboard/manuscripts/${id}/`);
    expect(none.body).toContain('No candidates: the last upload asked for none');
    expect(none.body).toContain(
      `<bdi>Nell Neutral</bdi> (author ${nellId}), marked by <bdi>cli@x.test</bdi>`,
    );
  });
});

describe('the manuscripts list', () => {
  it('searches titles by word prefixes or an exact origin id, and filters by folder', async () => {
    await uploadMs();
    const list = await get(viewer, '/dashboard/manuscripts/');
    expect(list.body).toContain('ms-dash');
    expect(list.body).not.toContain('<script>alert');
    expect((await get(viewer, '/dashboard/manuscripts/?q=passing+neur')).body).toContain('ms-dash');
    const exact = (await get(viewer, '/dashboard/manuscripts/?q=ms-dash')).body;
    expect(exact).toContain('ms-dash');
    // The exact origin id is named first, above the title matches.
    expect(exact).toMatch(
      /The manuscript whose origin id is <bdi>ms-dash<\/bdi>:\s*<a href="\/dashboard\/manuscripts\/\d+\/">/,
    );
    expect((await get(viewer, '/dashboard/manuscripts/?q=passing')).body).not.toContain('whose origin id');
    expect((await get(viewer, '/dashboard/manuscripts/?q=zebrafish')).body).not.toContain('ms-dash');
    // A search with no word in it matches origin ids only: it listed every manuscript as matching.
    const wordless = (await get(viewer, '/dashboard/manuscripts/?q=%25')).body;
    expect(wordless).toContain('Manuscripts matching “<bdi>%</bdi>”');
    expect(wordless).not.toContain('ms-dash');
    expect(wordless).toContain('No manuscript matches.');
    const other = await ensureFolder(t.db, org.id, 'OTHER');
    expect((await get(viewer, `/dashboard/manuscripts/?folder=${other}`)).body).not.toContain('ms-dash');
    // A folder id the organization does not have (another's, an edited link) is said, not "no match".
    const foreign = await ensureFolder(t.db, (await createTestOrg(t)).id, 'FOREIGN');
    const unknown = (await get(viewer, `/dashboard/manuscripts/?folder=${foreign}`)).body;
    expect(unknown).toContain(
      `This organization has no folder numbered ${foreign} or named “<bdi>${foreign}</bdi>”: choose one above.`,
    );
    expect(unknown).not.toContain('FOREIGN');
    // A folder named in a link (its journal code), in any case; a name the organization has none of
    // is said, with nothing listed, where any name was ignored and every manuscript shown.
    expect((await get(viewer, '/dashboard/manuscripts/?folder=JOUR')).body).toContain('ms-dash');
    expect((await get(viewer, '/dashboard/manuscripts/?folder=jour')).body).toContain('ms-dash');
    expect((await get(viewer, '/dashboard/manuscripts/?folder=OTHER')).body).not.toContain('ms-dash');
    const nope = (await get(viewer, '/dashboard/manuscripts/?folder=NOPE')).body;
    expect(nope).toContain('This organization has no folder named “<bdi>NOPE</bdi>”: choose one above.');
    expect(nope).not.toContain('ms-dash');
    expect((await get(viewer, '/dashboard/manuscripts/?folder=FOREIGN')).body).not.toContain('ms-dash');
    // Past the oldest: said so, with a way back, not "no manuscripts yet".
    const pastOldest = await get(viewer, '/dashboard/manuscripts/?before=1');
    expect(pastOldest.body).toContain('No older manuscripts.');
    expect(pastOldest.body).not.toContain('No manuscripts yet');
  });

  it('takes a pasted long title as a search, and names what a link holds that a page does not take', async () => {
    const long = `${'Message passing graph neural networks '.repeat(8)}`.trim();
    expect(long.length).toBeGreaterThan(200);
    const found = await get(viewer, `/dashboard/manuscripts/?q=${encodeURIComponent(long)}`);
    expect(found.statusCode).toBe(200);
    const refused = await get(viewer, '/dashboard/manuscripts/?before=0');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain("This address is not one the dashboard's links make");
    expect(refused.body).toMatch(
      /<li>The option before in the address, “<bdi>0<\/bdi>”, must be 1 or more\.<\/li>/,
    );
  });

  it('pages through every manuscript once, newest first, and back', async () => {
    const paged = await createTestOrg(t);
    const folder = await ensureFolder(t.db, paged.id, 'PAGED');
    await t.db.query(
      `INSERT INTO manuscripts (organization_id, origin_id, folder_id, supplied, authors_count, title, abstract)
       SELECT $1, 'p-' || n, $2, '{}'::jsonb, 1, 'Paged manuscript ' || n, '' FROM generate_series(1, 120) n`,
      [paged.id, folder],
    );
    const session = await signInAs(t, paged.id, 'viewer');
    const seen: string[] = [];
    let url: string | null = '/dashboard/manuscripts/';
    const pages: string[] = [];
    while (url) {
      const body: string = (await get(session, url)).body;
      pages.push(url);
      seen.push(...[...body.matchAll(/<code>(p-\d+)<\/code>/g)].map((m) => m[1]!));
      url = /href="([^"]+)" rel="next"/.exec(body)?.[1]?.replaceAll('&amp;', '&') ?? null;
    }
    expect(pages).toHaveLength(3);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `p-${120 - i}`));
    const last = (await get(session, pages[2]!)).body;
    const newer = /href="([^"]+)" rel="prev"/.exec(last)![1]!.replaceAll('&amp;', '&');
    const back = (await get(session, newer)).body;
    expect([...back.matchAll(/<code>(p-\d+)<\/code>/g)].map((m) => m[1])).toEqual(
      Array.from({ length: 50 }, (_, i) => `p-${70 - i}`),
    );
  });
});
