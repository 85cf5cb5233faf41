// How a journal (a corpus source) is told apart on the dashboard's pages. Venues share titles: the
// ACL Anthology's "Findings of the Association for Computational Linguistics" is three venues (of
// ACL, EMNLP and NAACL), all published by the ACL, which the folder's journal search, its linked
// journals and a manuscript's recommended journals showed as three identical rows but for an
// internal id. The catalogue's own id (`sources.source_key`: "acl:venue/findings-naacl", an OpenAlex
// "S…" id) and the ISSN-L, when there is one, say which venue each row is.
import type { Queryable } from '../infra/db/index.ts';
import { html, isolate, isolateText, type Html } from './html.ts';

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

/**
 * How a control names each journal of a page (a Link, Move or Unlink button's accessible name, said
 * by a screen reader): its title, and where another journal of the page has that title too, what
 * tells them apart (its catalogue id, its ISSN-L). The names said "(id 123)", an internal number a
 * listener cannot tie to anything. A title is isolated (`isolateText`): the name is plain text.
 */
export function journalNames(
  journals: ReadonlyArray<{ id: number; title: string }>,
  venues: ReadonlyMap<number, VenueIds>,
): Map<number, string> {
  const byTitle = new Map<string, number>();
  const titleKey = (title: string) => title.trim().toLowerCase();
  const unique = [...new Map(journals.map((j) => [j.id, j])).values()];
  for (const j of unique) byTitle.set(titleKey(j.title), (byTitle.get(titleKey(j.title)) ?? 0) + 1);
  return new Map(
    unique.map((j) =>
      byTitle.get(titleKey(j.title))! < 2
        ? [j.id, isolateText(j.title)]
        : [j.id, journalInWords(j, venues.get(j.id))],
    ),
  );
}

/**
 * A journal named in a sentence (a link's or an unlink's message): its title and what tells it apart
 * from a venue of the same title, its catalogue id and ISSN-L. The messages said "Findings of the
 * Association for Computational Linguistics (id 13)", an internal number, of one of three venues of
 * that title, where the page shows each one's catalogue id.
 */
export function journalInWords(journal: { id: number; title: string }, venue: VenueIds | undefined): string {
  // A journal an ingest removed has no catalogue entry left: its number tells it apart.
  const details = venue
    ? [`catalogue id ${venue.key}`, ...(venue.issn_l ? [`ISSN-L ${venue.issn_l}`] : [])]
    : [`no longer in the catalogue, number ${journal.id}`];
  return `${isolateText(journal.title)} (${details.join(', ')})`;
}

/** `journalInWords` of one journal, its catalogue ids read: a link's or an unlink's message. */
export async function loadJournalInWords(
  db: Queryable,
  journal: { id: number; title: string },
): Promise<string> {
  return journalInWords(journal, (await loadVenueIds(db, [journal.id])).get(journal.id));
}
