import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { loadAuthorSummaries } from '../../src/corpus/authors/author-summary.ts';
import { FIXTURES, ingest, OPENALEX } from './helpers.ts';
import { buildCorpus } from '../referee-finder/fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await ingest(t.db, 'works', [
    path.join(OPENALEX, 'W2741809807.json'),
    path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl'),
  ]);
});
afterAll(async () => {
  await t.close();
});

describe('every link handed out resolves', () => {
  it('author service_url and each last_articles service_url answer an HTML page', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `SELECT id FROM authors WHERE author_key = 'acl:person/yang-liu-icsi'`,
    );
    const summary = (await loadAuthorSummaries(t.db, t.config.publicBaseUrl, [rows[0]!.id])).get(
      rows[0]!.id,
    )!;
    const links = [summary.service_url, ...summary.last_articles.map((a) => a.service_url)];
    expect(links).toHaveLength(4);
    for (const link of links) {
      const res = await t.app.inject({ method: 'GET', url: link.replace(t.config.publicBaseUrl, '') });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    const page = await t.app.inject({ method: 'GET', url: `/authors/${rows[0]!.id}` });
    expect(page.body).toContain('<h1>Yang Liu</h1>');
    expect(page.body).toContain('Amazon');
  });

  it('a work page shows its title, authors with links, DOI and abstract', async () => {
    const { rows } = await t.db.query<{ id: number }>(`SELECT id FROM works WHERE work_key = 'W2741809807'`);
    const res = await t.app.inject({ method: 'GET', url: `/works/${rows[0]!.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('The state of OA');
    expect(res.body).toContain('https://doi.org/10.7717/peerj.4375');
    expect(res.body).toMatch(
      /<a href="http:\/\/refmatch\.test\/authors\/\d+"><bdi>Heather Piwowar<\/bdi><\/a>/,
    );
    expect(res.body).toContain('Despite growing interest');
  });

  it('answers 404 in the error shape for an unknown author or work, 400 for a non-numeric id', async () => {
    for (const url of ['/authors/99999999', '/works/99999999']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
    const bad = await t.app.inject({ method: 'GET', url: '/authors/abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_failed');
  });
});

// These pages are public and show what a corpus file said (src/corpus/pages.ts): written with the
// dashboard's template, served under a policy that runs no script.
describe('a corpus record written to harm its pages', () => {
  it('is escaped, isolated beside the other values, and served under a policy with no script', async () => {
    const ids = await buildCorpus(t.db, [
      {
        authors: [
          {
            name: 'Eve <script>alert(1)</script>\u202E',
            affiliation: 'Uni "><img src=x onerror=alert(2)>\u202E',
          },
          { name: 'Bob Next' },
        ],
        title: 'Graphs <svg onload=alert(3)>\u202E',
        doi: '10.1000/x"?y#z',
      },
    ]);
    const work = await t.app.inject({ url: `/works/${ids.workId('Graphs <svg onload=alert(3)>\u202E')}` });
    const author = await t.app.inject({
      url: `/authors/${ids.authorId('Eve <script>alert(1)</script>\u202E')}`,
    });
    for (const res of [work, author]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/<script|<svg|<img/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const policy = String(res.headers['content-security-policy']);
      expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[^']+';.* frame-ancestors 'none'/);
      // The page's one style is the one the policy names.
      const style = /<style>([^<]*)<\/style>/.exec(res.body)![1]!;
      expect(policy).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    }
    expect(work.body).toContain('<bdi>Eve &lt;script&gt;alert(1)&lt;/script&gt;\u202E\u202C</bdi>');
    expect(work.body).toContain('(<bdi>Uni &quot;&gt;&lt;img src=x onerror=alert(2)&gt;\u202E\u202C</bdi>)');
    expect(work.body).toContain('href="https://doi.org/10.1000/x%22%3Fy%23z"');
    expect(author.body).toContain('<bdi>Graphs &lt;svg onload=alert(3)&gt;\u202E\u202C</bdi>');
  });
});
