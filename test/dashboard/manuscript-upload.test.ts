// A manuscript uploaded from the dashboard's form, over HTTP in-process: a PDF and a DOCX read, stored
// and ranked as the API's upload is, the page coming back at the manuscript; a file that cannot be
// used (empty, text named .pdf, past the size limit, locked with a password, cut short) refused
// before anything is stored, saying what happened and what to do beside the file's input, which is
// focused, what was typed kept; who may upload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { pageAs, signInAs, type InjectSession } from '../helpers/dashboard.ts';
import { baseFields, fixture, multipartBody, upload, type FilePart } from '../manuscripts/upload-helpers.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';
import { makeEncryptedPdf } from '../parsing/make-files.ts';

let t: TestApp;
const FILE_LIMIT = 2 * 1024 * 1024;

beforeAll(async () => {
  // A small file limit, so that a file past it is small to send.
  t = await createTestApp({ fileLimitBytes: FILE_LIMIT });
});
afterAll(async () => t?.close());

const TYPED = {
  folder: 'JCL',
  origin_id: 'JCL-2026-0142',
  title: 'Neural machine translation for low-resource languages',
  abstract: 'We study transfer learning for translation between languages with little parallel data.',
  authors: 'Ada Lovelace; ada@example.org; University of London\nDerek F. Wong',
};

async function form(session: InjectSession) {
  return t.app.inject({ url: '/dashboard/manuscripts/upload/', headers: { cookie: session.cookie } });
}

function send(session: InjectSession, typed: Record<string, string>, file?: FilePart) {
  const { body, contentType } = multipartBody(
    { _csrf: session.csrf, ...typed },
    file ? [{ field: 'source_file', ...file }] : [],
  );
  return t.app.inject({
    method: 'POST',
    url: '/dashboard/manuscripts/upload/',
    headers: { cookie: session.cookie, 'content-type': contentType },
    payload: body,
  });
}

async function manuscriptsOf(organizationId: number): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM manuscripts WHERE organization_id = $1',
    [organizationId],
  );
  return rows[0]!.n;
}

/** The refused file input's message, as text. */
function fileMessage(page: string): string {
  const message = /<p id="source_file-error" class="field-error">([\s\S]*?)<\/p>/.exec(page)?.[1] ?? '';
  return message
    .replace(/<\/?bdi>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

describe('uploading a manuscript from the dashboard', () => {
  it('an editor uploads a PDF, then a DOCX of another manuscript: each read, stored in its folder with the typed authors, its page opened', async () => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    const list = await t.app.inject({ url: '/dashboard/manuscripts/', headers: { cookie: editor.cookie } });
    expect(list.body).toContain('<a href="/dashboard/manuscripts/upload/">Upload a manuscript</a>');
    expect((await form(editor)).body).toContain('enctype="multipart/form-data"');

    const pdf = await send(editor, TYPED, {
      name: 'manuscript.pdf',
      bytes: fixture('manuscripts/deep-rules/manuscript.pdf'),
    });
    expect(pdf.statusCode, pdf.body).toBe(303);
    const { rows } = await t.db.query<{
      id: number;
      folder: string;
      supplied_authors: unknown[];
      parse_error: string | null;
      parsed_text_len: number;
    }>(
      `SELECT m.id, f.name AS folder, coalesce(m.supplied->'authors', m.authors) AS supplied_authors, m.parse_error, length(m.full_text) AS parsed_text_len
         FROM manuscripts m JOIN folders f ON f.id = m.folder_id
        WHERE m.organization_id = $1 AND m.origin_id = 'JCL-2026-0142'`,
      [org.id],
    );
    expect(rows[0]).toMatchObject({ folder: 'JCL', parse_error: null });
    expect(rows[0]!.parsed_text_len).toBeGreaterThan(1000);
    expect(rows[0]!.supplied_authors).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.org', orcid: null, affiliation: 'University of London' },
      { name: 'Derek F. Wong', email: null, orcid: null, affiliation: null },
    ]);
    expect(pdf.headers.location).toBe(`/dashboard/manuscripts/${rows[0]!.id}/`);
    const page = await t.app.inject({ url: pdf.headers.location!, headers: { cookie: editor.cookie } });
    expect(page.body.replace(/<\/?bdi>/g, '')).toContain(
      'The manuscript Neural machine translation for low-resource languages was uploaded to the folder JCL:',
    );

    const docx = await send(
      editor,
      { ...TYPED, origin_id: 'JCL-2026-0143', authors: '' },
      { name: 'manuscript.docx', bytes: fixture('manuscripts/deep-rules/manuscript.docx') },
    );
    expect(docx.statusCode, docx.body).toBe(303);
    expect(await manuscriptsOf(org.id)).toBe(2);
    // No author typed: the file's are used, and no count stated is checked against them (a count of 0
    // read "authors_count is 0 but N authors were found" among the manuscript's warnings).
    const fromFile = await t.db.query<{ warnings: string[]; authors_count: number; found: number }>(
      `SELECT warnings, authors_count, jsonb_array_length(authors) AS found
         FROM manuscripts WHERE organization_id = $1 AND origin_id = 'JCL-2026-0143'`,
      [org.id],
    );
    expect(fromFile.rows[0]!.found).toBeGreaterThan(0);
    expect(fromFile.rows[0]!.warnings.join(' ')).not.toContain('authors_count');
    expect(fromFile.rows[0]!.authors_count).toBe(fromFile.rows[0]!.found);
  });

  const unusable: Array<[string, () => Buffer, number, RegExp]> = [
    [
      'an empty file',
      () => Buffer.alloc(0),
      400,
      /^The file empty\.pdf is empty \(0 bytes\)\. Choose the file again/,
    ],
    [
      'a text file named .pdf',
      () => Buffer.from('Reviewer notes, saved as text with a .pdf name.\n'),
      415,
      /^The file empty\.pdf is neither a PDF nor a DOCX document \(told by what it holds, not by its name\)\. Save or export the manuscript as PDF or as Word/,
    ],
    [
      'a file past the size limit',
      () => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(FILE_LIMIT, 0x20)]),
      413,
      /^The file empty\.pdf is larger than the 2 MiB a manuscript's file may have\. Choose a smaller copy/,
    ],
    [
      'a PDF locked with a password',
      () => Buffer.from(makeEncryptedPdf()),
      422,
      /^The file empty\.pdf could not be read: it is locked with a password\. Save a copy without the password/,
    ],
    [
      'a PDF cut short',
      () => fixture('manuscripts/deep-rules/manuscript.pdf').subarray(0, 3000),
      422,
      /^The file empty\.pdf could not be read: .+\. Or upload without a file: the title, abstract and authors are then ranked alone\.$/,
    ],
  ];
  for (const [what, bytes, status, said] of unusable) {
    it(`refuses ${what} beside the file's input, focused, what was typed kept, nothing stored`, async () => {
      const org = await createTestOrg(t);
      const editor = await signInAs(t, org.id, 'editor');
      const res = await send(editor, TYPED, { name: 'empty.pdf', bytes: bytes() });
      expect(res.statusCode, res.body).toBe(status);
      expect(fileMessage(res.body)).toMatch(said);
      // The input says it was refused and takes the focus; the message is read with it.
      expect(res.body).toMatch(
        /<input\s+id="source_file"\s+name="source_file"\s+type="file"[^>]*aria-describedby="source_file-error source_file-hint" aria-invalid="true" autofocus/,
      );
      expect(res.body).toContain(
        'The manuscript was not uploaded: its file could not be used. What you typed is kept; choose the file again.',
      );
      // One message at the top: not the layout's line on "each field" under it, which repeated it
      // (nothing saved) and spoke of fields where one file was refused (round 29).
      expect(res.body).not.toContain('class="fields-note"');
      for (const value of [TYPED.folder, TYPED.origin_id, TYPED.title])
        expect(res.body).toContain(`value="${value}"`);
      expect(res.body).toContain(`>${TYPED.abstract}</textarea>`);
      expect(res.body).toContain(
        'Ada Lovelace; ada@example.org; University of London\nDerek F. Wong</textarea>',
      );
      expect(await manuscriptsOf(org.id)).toBe(0);
    });
  }

  it('a form without a title is refused beside the title, the file kept unread, nothing stored', async () => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    const res = await send(editor, { ...TYPED, title: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<p id="title-error" class="field-error">Must not be empty</p>');
    expect(res.body).toMatch(/id="title"[^>]*aria-invalid="true" autofocus/);
    expect(res.body).toContain(
      'The manuscript was not uploaded: 1 field to correct, its message beside it. What you typed is kept.',
    );
    expect(res.body).not.toContain('class="fields-note"');
    expect(await manuscriptsOf(org.id)).toBe(0);
  });

  it("while the organization's uploads take every place of its own (UPLOADS_IN_FLIGHT_PER_ORG), says so at the page top with when to try again (503), nothing stored, the form kept", async () => {
    const org = await createTestOrg(t);
    const editor = await signInAs(t, org.id, 'editor');
    const gate = t.app.refmatch.inFlight.uploads;
    // The places the API's uploads in flight would hold: the form shares them (one lane).
    const held = Array.from({ length: t.app.refmatch.config.uploadsInFlightPerOrg }, () =>
      gate.admit(org.id),
    );
    try {
      const res = await send(editor, TYPED);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toContain(
        `Nothing was uploaded: The organization has ${held.length} uploads in progress, the most at once`,
      );
      expect(res.body).toContain(`value="${TYPED.origin_id}"`);
      expect(await manuscriptsOf(org.id)).toBe(0);
    } finally {
      for (const release of held) release();
    }
    expect((await send(editor, TYPED)).statusCode).toBe(303);
  });

  it('a viewer is offered no upload, and its post is refused (403)', async () => {
    const org = await createTestOrg(t);
    const viewer = await signInAs(t, org.id, 'viewer');
    const list = await t.app.inject({ url: '/dashboard/manuscripts/', headers: { cookie: viewer.cookie } });
    expect(list.body).not.toContain('Upload a manuscript');
    expect((await form(viewer)).statusCode).toBe(403);
    expect((await send(viewer, TYPED)).statusCode).toBe(403);
    expect(await manuscriptsOf(org.id)).toBe(0);
  });
});

describe('what a dashboard upload stores counts against the rate limits', () => {
  // 12 requests a minute an address; an abstract of 300,000 bytes counts as 4 more, as the API's
  // upload counts its text: the third such upload from one browser is past the limit.
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ rateLimits: { ...testConfig().rateLimits, perAddress: 12 } });
  });
  afterAll(async () => limited?.close());

  it('the upload past the address limit is refused (429) at the page top, nothing stored, the form kept', async () => {
    const org = await createTestOrg(limited);
    const editor = await signInAs(limited, org.id, 'editor');
    const typed = { ...TYPED, abstract: '語'.repeat(100_000) };
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 3; i++) {
      const { body, contentType } = multipartBody({ _csrf: editor.csrf, ...typed, origin_id: `JCL-${i}` });
      const res = await limited.app.inject({
        method: 'POST',
        url: '/dashboard/manuscripts/upload/',
        // Another address than the sign-in's, so that only the uploads count against it.
        remoteAddress: '10.0.0.9',
        headers: { cookie: editor.cookie, 'content-type': contentType },
        payload: body,
      });
      statuses.push(res.statusCode);
      last = res.body;
    }
    expect(statuses).toEqual([303, 303, 429]);
    expect(last).toContain('Nothing was uploaded: Too many request body bytes from this address');
    expect(last).toContain(`value="JCL-2"`);
    const { rows } = await limited.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM manuscripts WHERE organization_id = $1',
      [org.id],
    );
    expect(rows[0]!.n).toBe(2);
  });
});

describe('which metadata was used, and the count of authors (QA round 29)', () => {
  it("says the setting the upload merged by, kept when the setting changes; the form's lines are no stated count", async () => {
    const org = await createTestOrg(t);
    await updateSettings(t.db, org.id, { prefer: 'parsed' });
    const editor = await signInAs(t, org.id, 'editor');
    const sent = await send(
      editor,
      { ...TYPED, authors: 'Ada Lovelace; ada@example.org' },
      { name: 'manuscript.pdf', bytes: fixture('manuscripts/deep-rules/manuscript.pdf') },
    );
    expect(sent.statusCode, sent.body).toBe(303);
    const page = () => pageAs(t.app, editor, sent.headers.location as string);
    const first = await page();
    expect(first).toContain(
      'The organization&#39;s setting at this upload: prefer what was parsed from the file.',
    );
    // One author typed beside the file's 20: no "authors_count is 1 but 21 authors were found".
    expect(first).not.toContain('authors_count');
    const { rows } = await t.db.query<{ warnings: string[]; prefer: string }>(
      'SELECT warnings, prefer FROM manuscripts WHERE organization_id = $1',
      [org.id],
    );
    expect(rows).toEqual([{ warnings: [], prefer: 'parsed' }]);

    // The setting changed since: the page still says what this upload was merged by.
    await updateSettings(t.db, org.id, { prefer: 'supplied' });
    expect(await page()).toContain('prefer what was parsed from the file.');
    // An upload made before the setting was kept (migration 0116) does not guess it.
    await t.db.query('UPDATE manuscripts SET prefer = NULL WHERE organization_id = $1', [org.id]);
    expect(await page()).toContain('which was not recorded with this manuscript&#39;s last upload');
    await t.db.query("UPDATE manuscripts SET prefer = 'parsed' WHERE organization_id = $1", [org.id]);

    // The API's upload records it too; a manuscript with no file read says the supplied was used.
    const api = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: 'API-1' }),
      files: [{ name: 'manuscript.docx', bytes: fixture('manuscripts/deep-rules/manuscript.docx') }],
    });
    expect(api.statusCode, api.body).toBe(200);
    const noFile = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: 'API-2' }) });
    expect(noFile.statusCode, noFile.body).toBe(200);
    const ids = await t.db.query<{ id: number; origin_id: string }>(
      "SELECT id, origin_id FROM manuscripts WHERE organization_id = $1 AND origin_id LIKE 'API-%' ORDER BY origin_id",
      [org.id],
    );
    const [withFile, withoutFile] = ids.rows.map((r) => `/dashboard/manuscripts/${r.id}/`);
    expect(await pageAs(t.app, editor, withFile!)).toContain('prefer the supplied fields.');
    expect(await pageAs(t.app, editor, withoutFile!)).toContain(
      'No file was read for this manuscript: what was supplied was used.',
    );
  }, 60_000);
});
