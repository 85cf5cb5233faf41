import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { loadAuthorSummaries } from '../../src/corpus/authors/author-summary.ts';
import { FIXTURES, ingest, OPENALEX } from './helpers.ts';

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
    expect(res.body).toMatch(/<a href="http:\/\/refmatch\.test\/authors\/\d+">Heather Piwowar<\/a>/);
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
