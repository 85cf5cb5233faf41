// The linked-author object of spec 2.1 (`author`): profile link, name, counts and the last three
// articles. Shared by every response that shows a corpus author this way.
import type { Queryable } from '../../infra/db/index.ts';

export interface ArticleSummary {
  service_url: string;
  title: string;
  year: number | null;
}

export interface AuthorSummary {
  id: number;
  service_url: string;
  name: string;
  articles_count: number;
  h_index: number;
  last_articles: ArticleSummary[];
}

export function authorUrl(publicBaseUrl: string, authorId: number): string {
  return `${publicBaseUrl}/authors/${authorId}`;
}

export function workUrl(publicBaseUrl: string, workId: number): string {
  return `${publicBaseUrl}/works/${workId}`;
}

/** Summaries of the given corpus authors, by id; ids with no author row are absent from the map. */
export async function loadAuthorSummaries(
  db: Queryable,
  publicBaseUrl: string,
  authorIds: readonly number[],
): Promise<Map<number, AuthorSummary>> {
  const ids = [...new Set(authorIds)];
  const out = new Map<number, AuthorSummary>();
  if (ids.length === 0) return out;
  const authors = await db.query<{
    id: number;
    display_name: string;
    articles_count: number;
    h_index: number;
  }>('SELECT id, display_name, articles_count, h_index FROM authors WHERE id = ANY($1::int[])', [ids]);
  for (const a of authors.rows) {
    out.set(a.id, {
      id: a.id,
      service_url: authorUrl(publicBaseUrl, a.id),
      name: a.display_name,
      articles_count: a.articles_count,
      h_index: a.h_index,
      last_articles: [],
    });
  }
  // The newest three works of each author; an author listed twice on one work counts it once.
  const works = await db.query<{
    author_id: number;
    id: number;
    title: string;
    publication_year: number | null;
  }>(
    `SELECT x.author_id, w.id, w.title, w.publication_year
       FROM unnest($1::int[]) AS x(author_id)
       CROSS JOIN LATERAL (
         SELECT DISTINCT w.id, w.title, w.publication_year
           FROM authorships s JOIN works w ON w.id = s.work_id
          WHERE s.author_id = x.author_id
          ORDER BY w.publication_year DESC NULLS LAST, w.id DESC
          LIMIT 3
       ) w
      ORDER BY x.author_id, w.publication_year DESC NULLS LAST, w.id DESC`,
    [ids],
  );
  for (const w of works.rows) {
    out.get(w.author_id)?.last_articles.push({
      service_url: workUrl(publicBaseUrl, w.id),
      title: w.title,
      year: w.publication_year,
    });
  }
  return out;
}
