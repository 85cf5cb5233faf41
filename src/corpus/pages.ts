// Minimal public HTML pages for corpus authors and works: every `service_url` and `url` the API hands
// out points here, so each link resolves to something a person can read.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { RowId, errorResponses } from '../http/schemas.ts';
import { errors } from '../infra/errors.ts';
import { html, Html, htmlSecurityHeaders, isolate } from '../http/html.ts';
import { authorUrl, workUrl } from './authors/author-summary.ts';
import { academicAge, type AuthorMetrics } from './authors/metrics.ts';

const IdParams = Type.Object({ id: RowId() });
const HtmlPage = Type.String({ description: 'An HTML page' });
const PAGE_WORKS = 100;

/** The schema of a public HTML page of one corpus record, found by its id. */
function htmlPageSchema(summary: string) {
  return {
    summary,
    tags: ['corpus'],
    params: IdParams,
    produces: ['text/html'],
    response: { 200: HtmlPage, ...errorResponses(400, 404) },
  };
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}' +
  'dt{font-weight:600}dd{margin:0 0 .5rem}li{margin:.3rem 0}.retracted{color:#a00;font-weight:600}';

// These pages are public (no key, no session) and show what a corpus file said: names, titles,
// venues, affiliations. They are written with the dashboard's one template (every value escaped, a
// value's direction controls closed) and served under a policy as strict as the dashboard's: no
// script, their one style by its hash, no frame, nothing sniffed as another type. They had an escape
// of their own and no policy; a title ending in a right-to-left override reversed "cited" after it.
const CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
  "img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Written whole, outside any template that a formatter may lay out: its text is what CSP hashes. */
const STYLE_ELEMENT = new Html(`<style>${STYLE}</style>`);

function page(reply: FastifyReply, title: string, body: Html): FastifyReply {
  return htmlSecurityHeaders(reply.type('text/html; charset=utf-8'), CSP).send(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${title} · refmatch</title>
          ${STYLE_ELEMENT}
        </head>
        <body>
          ${body}
        </body>
      </html>`.value,
  );
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

function workItem(base: string, w: WorkListRow): Html {
  return html`<li>
    <a href="${workUrl(base, w.id)}">${isolate(w.title)}</a> (${w.publication_year ?? 'n.d.'})${
      w.source ? html` · ${isolate(w.source)}` : null
    }
    · cited ${w.cited_by_count}${w.is_retracted ? html` <span class="retracted">Retracted</span>` : null}
  </li>`;
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
      return page(
        reply,
        a.display_name,
        html`<h1>${a.display_name}</h1>
          <dl>
            ${
              a.orcid
                ? html`<dt>ORCID</dt>
                    <dd><a href="https://orcid.org/${encodeURIComponent(a.orcid)}">${a.orcid}</a></dd>`
                : null
            }
            <dt>Most recent affiliation</dt>
            <dd>${a.recent_affiliation ?? 'unknown'}</dd>
            <dt>Articles</dt>
            <dd>${a.articles_count}</dd>
            <dt>Citations</dt>
            <dd>${a.citations_count}</dd>
            <dt>h-index</dt>
            <dd>${a.h_index}</dd>
            <dt>Publication years</dt>
            <dd>
              ${a.first_publication_year ?? '?'}–${a.last_publication_year ?? '?'}${
                age !== null ? ` (academic age ${age})` : null
              }
            </dd>
          </dl>
          <h2>Articles</h2>
          <ol>
            ${works.rows.map((w) => workItem(base, w))}
          </ol>
          <p><a href="${authorUrl(base, a.id)}">Permanent link</a></p>`,
      );
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
      ['DOI', w.doi, 'https://doi.org/', ''],
      ['PubMed', w.pmid, 'https://pubmed.ncbi.nlm.nih.gov/', '/'],
      ['arXiv', w.arxiv_id, 'https://arxiv.org/abs/', ''],
    ] as const;
    return page(
      reply,
      w.title,
      html`<h1>${w.title}</h1>
        ${w.is_retracted ? html`<p class="retracted">This article has been retracted.</p>` : null}
        <p>
          ${authors.rows.map(
            (a, i) =>
              html`${i > 0 ? ', ' : null}<a href="${authorUrl(base, a.id)}">${isolate(a.display_name)}</a>${
                  a.raw_affiliations[0] ? html` (${isolate(a.raw_affiliations[0])})` : null
                }`,
          )}
        </p>
        <dl>
          <dt>Published</dt>
          <dd>${w.publication_year ?? 'n.d.'}${w.source ? html` in ${isolate(w.source)}` : null}</dd>
          <dt>Type</dt>
          <dd>${w.type ?? 'unknown'}</dd>
          <dt>Cited by</dt>
          <dd>${w.cited_by_count}</dd>
          ${ids.map(([label, id, at, after]) =>
            id
              ? html`<dt>${label}</dt>
                  <dd>
                    <a href="${at}${id.split('/').map(encodeURIComponent).join('/')}${after}">${id}</a>
                  </dd>`
              : null,
          )}
        </dl>
        ${
          w.abstract
            ? html`<h2>Abstract</h2>
                <p>${w.abstract}</p>`
            : null
        }`,
    );
  });
}
