// An editor's file uploads, in Chromium at 375 and 1280 px (QA round 29): the PDF and the DOCX of a
// real manuscript (test/fixtures/manuscripts/deep-rules) through the upload page's form, with and
// without metadata typed, under each value of the organization's `prefer` setting. What the page
// shows (the title used, the parsed authors and references, the conflicts "cited in the manuscript"
// and the co-authorship found from the file's authors) is what the API's upload (4.5, app.inject)
// answers for the same file and settings, and the page says which side was used and by which setting.
// Then files the form refuses (locked with a password, a DOCX cut short, past the size limit): what
// was typed is kept and the message says why, in docs/dashboard.md's words. Each page passes axe.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '../helpers/app.ts';
import { expectAccessible, signedInPage, useBrowserApp } from '../helpers/browser.ts';
import { fixture, upload } from '../manuscripts/upload-helpers.ts';
import { makeEncryptedPdf } from '../parsing/make-files.ts';
import { buildCorpus } from '../referee-finder/fixtures.ts';
import { updateSettings, type Prefer } from '../../src/organizations/organizations.ts';

const FILE_LIMIT = 1024 * 1024;
const t = useBrowserApp({ fileLimitBytes: FILE_LIMIT });
const PDF = fixture('manuscripts/deep-rules/manuscript.pdf');
const DOCX = fixture('manuscripts/deep-rules/manuscript.docx');
const TOPIC =
  'Deep learning in biology: neural networks for genomics, protein structure and molecular ' +
  'fingerprints, with convolutional networks on graphs.';
// The manuscript's first author, with the ORCID iD its byline gives, so the file settles who she is.
const LEE_ORCID = '0000-0002-7133-8397';

beforeAll(async () => {
  await buildCorpus(t.db, [
    // A work the manuscript cites (its first reference).
    {
      title: 'Convolutional Networks on Graphs for Learning Molecular Fingerprints',
      abstract: TOPIC,
      authors: [{ name: 'David Duvenaud' }],
    },
    // A work of the manuscript's first author, with a co-author.
    {
      title: 'Deep learning for genomics and protein biology',
      abstract: TOPIC,
      authors: [{ name: 'Benjamin D. Lee', orcid: LEE_ORCID }, { name: 'Nora Coauthor' }],
    },
    {
      title: 'Neural networks in computational biology',
      abstract: TOPIC,
      authors: [{ name: 'Nell Neutral' }],
    },
  ]);
  await t.app.refmatch.index.refresh();
});

interface Typed {
  title: string;
  abstract: string;
  authors: string;
}
const TYPED: Typed = {
  title: 'A typed title on deep learning in biology',
  abstract: 'A typed abstract on neural networks for genomics.',
  authors: 'Ada Lovelace; ada@example.org; University of London',
};
const TITLE_ONLY: Typed = { title: 'Ten tips', abstract: '', authors: '' };

async function fillForm(page: Page, origin: string, typed: Typed): Promise<void> {
  await page.goto(`${t.url}/dashboard/manuscripts/upload/`);
  await page.getByLabel('Folder').fill('BIO');
  await page.getByLabel('Origin id').fill(origin);
  await page.getByLabel('Title').fill(typed.title);
  await page.getByLabel('Abstract').fill(typed.abstract);
  await page.getByLabel('Authors').fill(typed.authors);
}

/** The API's upload of the same file and metadata, under the same organization's settings. */
async function apiUpload(org: TestOrg, origin: string, typed: Typed, name: string, bytes: Buffer) {
  const authors = typed.authors ? [typed.authors.split(';').map((s) => s.trim())] : [];
  const fields: Record<string, string> = {
    folder: 'BIO',
    origin_id: `${origin}-api`,
    title: typed.title,
    abstract: typed.abstract,
    authors_count: String(authors.length),
  };
  authors.forEach(([name = '', email = '', aff = ''], i) =>
    Object.assign(fields, {
      [`author${i + 1}_name`]: name,
      [`author${i + 1}_email`]: email,
      [`author${i + 1}_aff`]: aff,
    }),
  );
  const res = await upload(t.app, { apiKey: org.apiKey, fields, files: [{ name, bytes }] });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    candidates: Array<{
      name: string;
      coauth_conflicts: { exists: boolean };
      referenced_articles: { exists: boolean };
    }>;
    debug_info: {
      parsed_references: number;
      authors_info: { authors_count: number; emails_count: number; orcids_count: number };
    };
  };
}

/** The candidates' table as the page shows it: each name with the conflicts its row lists. */
async function candidateRows(page: Page): Promise<Map<string, string>> {
  const rows = page.locator('table', { hasText: 'Mark as referee' }).locator('tbody > tr');
  const shown = new Map<string, string>();
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const name = (await row.locator('td').first().innerText()).split('\n')[0]!.trim();
    shown.set(name, await row.innerText());
  }
  return shown;
}

describe("an editor's file uploads, checked against the API's", () => {
  for (const width of [375, 1280]) {
    for (const prefer of ['supplied', 'parsed'] as Prefer[]) {
      it(`at ${width} px, the organization preferring the ${prefer} metadata`, async () => {
        const org = await createTestOrg(t);
        await updateSettings(t.db, org.id, { include_without_email: true });
        // The setting chosen as an organization's admin chooses it, on the settings page.
        const admin = await signedInPage(t, org.id, 'integrations_admin', { width });
        await admin.goto(`${t.url}/dashboard/settings/`);
        await admin
          .getByLabel(prefer === 'parsed' ? 'what was parsed from the file' : 'the supplied fields')
          .check();
        await admin.getByRole('button', { name: 'Save settings' }).click();
        await admin.waitForLoadState();
        await expectAccessible(admin);
        await admin.context().close();
        const page = await signedInPage(t, org.id, 'editor', { width });
        for (const [file, bytes, typed] of [
          ['manuscript.pdf', PDF, TYPED],
          ['manuscript.docx', DOCX, TITLE_ONLY],
        ] as const) {
          const origin = `BIO-${width}-${prefer}-${file}`;
          await fillForm(page, origin, typed);
          await expectAccessible(page);
          await page.getByLabel('Manuscript file (optional)').setInputFiles({
            name: file,
            mimeType: 'application/octet-stream',
            buffer: bytes,
          });
          await page.getByRole('button', { name: 'Upload and find candidates' }).click();
          await page.waitForURL(/\/dashboard\/manuscripts\/\d+\/$/, { timeout: 60_000 });
          await expectAccessible(page);
          const api = await apiUpload(org, origin, typed, file, bytes);
          const main = await page.locator('main').innerText();

          // The references and the authors read from the file, as the API counts them.
          expect(main).toContain(`${api.debug_info.parsed_references} references read`);
          const parsedAuthors = page
            .locator('table')
            .first()
            .locator('tr', { hasText: 'Authors' })
            .locator('td')
            .nth(1);
          expect(await parsedAuthors.locator('ol > li').count()).toBe(
            api.debug_info.authors_info.authors_count,
          );
          const parsedText = await parsedAuthors.innerText();
          expect(parsedText.match(/[^\s(;]+@[^\s);]+/g) ?? []).toHaveLength(
            api.debug_info.authors_info.emails_count,
          );
          expect(parsedText.match(/\b\d{4}-\d{4}-\d{4}-\d{3}[\dX]\b/g) ?? []).toHaveLength(
            api.debug_info.authors_info.orcids_count,
          );
          // No count was stated in the form: no warning about one (it said "authors_count is 1 but 21
          // authors were found" beside a file read under the "parsed" setting).
          expect(main).not.toContain('authors_count');

          // Which side was used, and by which setting.
          const rule = await page.locator('#used-rule').innerText();
          expect(rule).toContain(
            prefer === 'parsed' ? 'prefer what was parsed from the file' : 'prefer the supplied fields',
          );
          const used = page.locator('table').first().locator('tr', { hasText: 'Title' }).locator('td').nth(2);
          const fileTitle = 'Ten Quick Tips for Deep Learning in Biology';
          const usedTitle = prefer === 'parsed' || typed.title === '' ? fileTitle : typed.title;
          // The cell's own text: on a phone the stacked table leads each cell with its column's name
          // (a label hidden from screen readers, which read the column's header).
          const [label = ''] = await used.locator('.cell-label').allInnerTexts();
          const shown = await used.innerText();
          const usedText = (label && shown.startsWith(label) ? shown.slice(label.length) : shown).trim();
          expect(usedText).toBe(usedTitle);
          // The page's heading and its message name the manuscript by the title used (the message
          // named it by the title typed, under "parsed" another title than the heading's).
          expect(await page.locator('h1').innerText()).toBe(usedTitle);
          expect(await page.locator('.flash').innerText()).toBe(
            `The manuscript ${usedTitle} was uploaded to the folder BIO: ${api.candidates.length} candidates.`,
          );

          // The candidates and their conflicts as the API answered them.
          const rows = await candidateRows(page);
          expect([...rows.keys()].sort()).toEqual(api.candidates.map((c) => c.name).sort());
          for (const c of api.candidates) {
            const row = rows.get(c.name)!;
            expect(row.includes('Cited in the manuscript'), c.name).toBe(c.referenced_articles.exists);
            expect(row.includes('Co-authorship'), c.name).toBe(c.coauth_conflicts.exists);
          }
          expect(rows.get('David Duvenaud')).toContain('Cited in the manuscript');
          // The file's first author, settled by her ORCID iD: not her own candidate, and her
          // co-author's conflict found, whichever side is preferred. Under "supplied" with an author
          // typed, the file's authors the form does not name are left out of the author list but
          // still count for conflicts (docs/manuscript-upload.md, "Merging").
          expect(rows.has('Benjamin D. Lee')).toBe(false);
          expect(rows.get('Nora Coauthor')?.includes('Co-authorship')).toBe(true);
        }
        await page.context().close();
      }, 180_000);
    }

    it(`at ${width} px, files the form refuses keep what was typed and say why`, async () => {
      const org = await createTestOrg(t);
      const page = await signedInPage(t, org.id, 'editor', { width });
      const refused = [
        {
          name: 'locked.pdf',
          buffer: Buffer.from(makeEncryptedPdf()),
          said: 'could not be read: it is locked with a password.',
        },
        {
          name: 'cut-short.docx',
          buffer: DOCX.subarray(0, DOCX.length >> 1),
          said: 'could not be read: it is damaged or incomplete',
        },
        {
          name: 'twice.pdf',
          buffer: Buffer.concat([PDF, PDF]),
          said: "is larger than the 1 MiB a manuscript's file may have.",
        },
      ];
      for (const file of refused) {
        await fillForm(page, `BIO-${width}-${file.name}`, TYPED);
        await page.getByLabel('Manuscript file (optional)').setInputFiles({
          name: file.name,
          mimeType: 'application/octet-stream',
          buffer: file.buffer,
        });
        await page.getByRole('button', { name: 'Upload and find candidates' }).click();
        await page.waitForLoadState();
        expect(page.url()).toMatch(/\/dashboard\/manuscripts\/upload\/$/);
        const message = await page.locator('#source_file-error').innerText();
        expect(message).toContain(`The file ${file.name} ${file.said}`);
        expect(message).toMatch(
          /or upload without a file: the title, abstract and authors are then ranked alone\.$/i,
        );
        expect(await page.locator('main').innerText()).toContain(
          'The manuscript was not uploaded: its file could not be used. What you typed is kept; choose the file again.',
        );
        expect(await page.getByLabel('Title').inputValue()).toBe(TYPED.title);
        expect(await page.getByLabel('Abstract').inputValue()).toBe(TYPED.abstract);
        expect(await page.getByLabel('Authors').inputValue()).toBe(TYPED.authors);
        expect(await page.getByLabel('Origin id').inputValue()).toBe(`BIO-${width}-${file.name}`);
        expect(await page.evaluate('document.activeElement.id')).toBe('source_file');
        await expectAccessible(page);
      }
      const { rows } = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM manuscripts WHERE organization_id = $1',
        [org.id],
      );
      expect(rows[0]!.n).toBe(0);
      await page.context().close();
    }, 120_000);
  }
});
