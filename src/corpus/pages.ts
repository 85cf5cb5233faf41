// Minimal public HTML pages for corpus authors and works: every `service_url` and `url` the API hands
// out points here, so each link resolves to something a person can read.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { RowId, errorResponses } from '../http/schemas.ts';
import { errors } from '../infra/errors.ts';
import { authorUrl, workUrl } from './authors/author-summary.ts';
import { academicAge, type AuthorMetrics } from './authors/metrics.ts';

const IdParams = Type.Object({ id: RowId() });
const Html = Type.String({ description: 'An HTML page' });
const PAGE_WORKS = 100;

/** The schema of a public HTML page of one corpus record, found by its id. */
function htmlPageSchema(summary: string) {
  return {
    summary,
    tags: ['corpus'],
    params: IdParams,
    produces: ['text/html'],
    response: { 200: Html, ...errorResponses(400, 404) },
  };
}

function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · refmatch</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}
dt{font-weight:600}dd{margin:0 0 .5rem}li{margin:.3rem 0}.retracted{color:#a00;font-weight:600}</style>
</head><body>${body}</body></html>`;
}

// The page shows the metrics columns as corpus/authors/metrics.ts defines them.
type AuthorRow = { id: number; display_name: string; orcid: string | null } & Pick<
  AuthorMetrics,
  | 'articles_count'
  | 'citations_count'
  | 'h_index'
  | 'first_publication_year'
  | 'last_publication_year'
  | 'recent_affiliation'
>;

interface WorkListRow {
  id: number;
  title: string;
  publication_year: number | null;
  cited_by_count: number;
  is_retracted: boolean;
  source: string | null;
}

function workItem(base: string, w: WorkListRow): string {
  const retracted = w.is_retracted ? ' <span class="retracted">Retracted</span>' : '';
  const venue = w.source ? ` · ${esc(w.source)}` : '';
  return `<li><a href="${esc(workUrl(base, w.id))}">${esc(w.title)}</a> (${esc(w.publication_year ?? 'n.d.')})${venue} · cited ${w.cited_by_count}${retracted}</li>`;
}

export function registerCorpusPages(app: FastifyInstance, ctx: AppContext): void {
  const base = ctx.config.publicBaseUrl;
  app.get(
    '/authors/:id',
    { schema: htmlPageSchema("An author's public profile page (HTML)") },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const found = await ctx.db.query<AuthorRow>(
        `SELECT id, display_name, orcid, articles_count, citations_count, h_index, first_publication_year,
                last_publication_year, recent_affiliation FROM authors WHERE id = $1`,
        [id],
      );
      const a = found.rows[0];
      if (!a) throw errors.notFound(`Author ${id}`);
      const works = await ctx.db.query<WorkListRow>(
        `SELECT DISTINCT w.id, w.title, w.publication_year, w.cited_by_count, w.is_retracted, src.title AS source
           FROM authorships s JOIN works w ON w.id = s.work_id LEFT JOIN sources src ON src.id = w.source_id
          WHERE s.author_id = $1 ORDER BY w.publication_year DESC NULLS LAST, w.id DESC LIMIT ${PAGE_WORKS}`,
        [id],
      );
      const age = academicAge(a.first_publication_year);
      const orcid = a.orcid
        ? `<dt>ORCID</dt><dd><a href="https://orcid.org/${esc(a.orcid)}">${esc(a.orcid)}</a></dd>`
        : '';
      const body = `<h1>${esc(a.display_name)}</h1>
<dl>${orcid}
<dt>Most recent affiliation</dt><dd>${esc(a.recent_affiliation ?? 'unknown')}</dd>
<dt>Articles</dt><dd>${a.articles_count}</dd>
<dt>Citations</dt><dd>${a.citations_count}</dd>
<dt>h-index</dt><dd>${a.h_index}</dd>
<dt>Publication years</dt><dd>${esc(a.first_publication_year ?? '?')}–${esc(a.last_publication_year ?? '?')}${age !== null ? ` (academic age ${age})` : ''}</dd>
</dl>
<h2>Articles</h2><ol>${works.rows.map((w) => workItem(base, w)).join('\n')}</ol>
<p><a href="${esc(authorUrl(base, a.id))}">Permanent link</a></p>`;
      return reply.type('text/html; charset=utf-8').send(page(a.display_name, body));
    },
  );

  app.get('/works/:id', { schema: htmlPageSchema('A work of the corpus (HTML)') }, async (request, reply) => {
    const { id } = request.params as { id: number };
    const found = await ctx.db.query<{
      id: number;
      title: string;
      abstract: string | null;
      publication_year: number | null;
      doi: string | null;
      pmid: string | null;
      arxiv_id: string | null;
      is_retracted: boolean;
      cited_by_count: number;
      type: string | null;
      source: string | null;
    }>(
      `SELECT w.id, w.title, w.abstract, w.publication_year, w.doi, w.pmid, w.arxiv_id, w.is_retracted,
                w.cited_by_count, w.type, src.title AS source
           FROM works w LEFT JOIN sources src ON src.id = w.source_id WHERE w.id = $1`,
      [id],
    );
    const w = found.rows[0];
    if (!w) throw errors.notFound(`Work ${id}`);
    const authors = await ctx.db.query<{ id: number; display_name: string; raw_affiliations: string[] }>(
      `SELECT a.id, a.display_name, s.raw_affiliations FROM authorships s JOIN authors a ON a.id = s.author_id
          WHERE s.work_id = $1 ORDER BY s.position`,
      [id],
    );
    const ids = [
      w.doi ? `<dt>DOI</dt><dd><a href="https://doi.org/${esc(w.doi)}">${esc(w.doi)}</a></dd>` : '',
      w.pmid
        ? `<dt>PubMed</dt><dd><a href="https://pubmed.ncbi.nlm.nih.gov/${esc(w.pmid)}/">${esc(w.pmid)}</a></dd>`
        : '',
      w.arxiv_id
        ? `<dt>arXiv</dt><dd><a href="https://arxiv.org/abs/${esc(w.arxiv_id)}">${esc(w.arxiv_id)}</a></dd>`
        : '',
    ].join('');
    const body = `<h1>${esc(w.title)}</h1>
${w.is_retracted ? '<p class="retracted">This article has been retracted.</p>' : ''}
<p>${authors.rows
      .map(
        (a) =>
          `<a href="${esc(authorUrl(base, a.id))}">${esc(a.display_name)}</a>${a.raw_affiliations[0] ? ` (${esc(a.raw_affiliations[0])})` : ''}`,
      )
      .join(', ')}</p>
<dl><dt>Published</dt><dd>${esc(w.publication_year ?? 'n.d.')}${w.source ? ` in ${esc(w.source)}` : ''}</dd>
<dt>Type</dt><dd>${esc(w.type ?? 'unknown')}</dd><dt>Cited by</dt><dd>${w.cited_by_count}</dd>${ids}</dl>
${w.abstract ? `<h2>Abstract</h2><p>${esc(w.abstract)}</p>` : ''}`;
    return reply.type('text/html; charset=utf-8').send(page(w.title, body));
  });
}
