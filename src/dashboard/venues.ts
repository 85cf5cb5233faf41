// How a journal (a corpus source) is told apart on the dashboard's pages. Venues share titles: the
// ACL Anthology's "Findings of the Association for Computational Linguistics" is three venues (of
// ACL, EMNLP and NAACL), all published by the ACL, which the folder's journal search, its linked
// journals and a manuscript's recommended journals showed as three identical rows but for an
// internal id. The catalogue's own id (`sources.source_key`: "acl:venue/findings-naacl", an OpenAlex
// "S…" id) and the ISSN-L, when there is one, say which venue each row is.
import type { Queryable } from '../infra/db/index.ts';
import { html, isolate, type Html } from './html.ts';

export interface VenueIds {
  /** The id in the catalogue the venue was ingested from. */
  key: string;
  issn_l: string | null;
}

/** The catalogue id and ISSN-L of each source, by its id; an id no longer in the corpus is absent. */
export async function loadVenueIds(
  db: Queryable,
  sourceIds: readonly number[],
): Promise<Map<number, VenueIds>> {
  const ids = [...new Set(sourceIds)];
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<VenueIds & { id: number }>(
    'SELECT id, source_key AS key, issn_l FROM sources WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, { key: r.key, issn_l: r.issn_l }]));
}

/**
 * The line under a journal's title: "publisher · catalogue id … · ISSN-L … · id N", each part when
 * known; the id where the table has no column of its own for it.
 */
export function venueLine(
  publisher: string | null,
  venue: VenueIds | undefined,
  id: number | null = null,
): Html {
  const parts = [
    publisher ? isolate(publisher) : null,
    venue ? html`catalogue id <code>${venue.key}</code>` : null,
    venue?.issn_l ? html`ISSN-L ${venue.issn_l}` : null,
    id === null ? null : html`id ${id}`,
  ].filter((part): part is Html => part !== null);
  return html`${parts.map((part, i) => html`${i > 0 ? ' · ' : ''}${part}`)}`;
}
