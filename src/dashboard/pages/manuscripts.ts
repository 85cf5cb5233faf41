// Manuscripts (read; marking and custom values: editor): the organization's uploads listed by folder
// and searched by title, and a manuscript's page: what was supplied and what was parsed, its custom
// field values (custom-fields/folder-manuscript-values.ts), the candidates of its last
// upload (every field of spec 2.3, sortable and filterable) with each conflict's evidence from the
// conflict policy, marking and unmarking as referee (manuscripts/marks.ts, the store the upload
// reads `marked_by` from), and the recommended journals (journals/cache.ts over journals/recommend.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { MAX_INTEGER, RowId, rowIdOf } from '../../http/schemas.ts';
import type { AppContext } from '../../app-context.ts';
import { authorUrl, workUrl } from '../../corpus/authors/author-summary.ts';
import { listGroups } from '../../authors-groups/store.ts';
import { listOwnerCustomFields } from '../../custom-fields/store.ts';
import { readCustomValues } from '../../custom-fields/folder-manuscript-values.ts';
import type { Queryable } from '../../infra/db/index.ts';
import { foldAccents } from '../../infra/text-fold.ts';
import { parsePersonName, parsedNamesCompatible } from '../../corpus/authors/names.ts';
import { errors } from '../../infra/errors.ts';
import { findFolderNamed, listFolderNames } from '../../folders/folders.ts';
import { journalsForManuscript } from '../../journals/cache.ts';
import type { RecommendedJournal } from '../../journals/recommend.ts';
import type { AuthorsGroupsSettings } from '../../manuscripts/upload-schema.ts';
import {
  isStoredCandidate,
  loadCandidates,
  type StoredCandidate,
} from '../../manuscripts/candidates-store.ts';
import {
  findByOriginId,
  listManuscripts,
  requireManuscript,
  type ManuscriptDetail,
} from '../../manuscripts/list.ts';
import { changeMark, marksOf, marksOfManuscript, type Mark } from '../../manuscripts/marks.ts';
import { requireOrganization } from '../../organizations/organizations.ts';
import type { CandidateWhy } from '../../referee-finder/concepts.ts';
import { workSummaries } from '../../referee-finder/candidate-data.ts';
import { candidateContacts } from '../../referee-finder/contacts.ts';
import { CONFLICT_KINDS, type Conflict, type ConflictKind } from '../../referee-finder/conflict-policy.ts';
import {
  authorsFlaggedFor,
  flagAuthorConflict,
  unflagAuthorConflict,
} from '../../referee-finder/external-coi.ts';
import {
  actionButton,
  dashboardRoute,
  mayDo,
  messageBeside,
  orgOf,
  redirectTo,
  renderPage,
  sessionOf,
  CsrfOnly,
  SEARCH_MAX,
} from '../framework.ts';
import { pageCount, pagerNav } from '../pager.ts';
import {
  countOf,
  dashboardPath,
  formatCount,
  html,
  isolate,
  isolateText,
  mailtoHref,
  sectionLinks,
  type Html,
} from '../html.ts';
import { loadVenueIds, venueLine, type VenueIds } from '../venues.ts';
import { CSV_BOM, csvDownload, csvFileName, csvLine, fileDate } from '../csv.ts';
import { RECORD_HEADERS, type RecordHeader } from './group-import.ts';
import { dataTable, stackedCell } from '../table.ts';
import { CUSTOM_FIELDS_ID, customValuesSection, registerCustomValuesSave } from '../custom-values-form.ts';

/** What a folder's number can be, said where digits asked for are no folder's. */
const FOLDER_NUMBERS = html`a folder's number is a whole number from 1 to ${formatCount(MAX_INTEGER)}`;

const Id = RowId();
const PAGE_SIZE = 50;

const ListQuery = Type.Object({
  // A folder's id (the menu's value) or its name (the journal code, typed into a link).
  folder: Type.Optional(Type.String({ maxLength: 256 })),
  q: Type.Optional(Type.String({ maxLength: SEARCH_MAX })),
  before: Type.Optional(Id),
  after: Type.Optional(Id),
});

const SORTS = {
  score: { label: 'Score', numeric: true },
  hIndex: { label: 'h-index', numeric: true },
  citationsCount: { label: 'Citations', numeric: true },
  articlesCount: { label: 'Articles', numeric: true },
  name: { label: 'Name', numeric: false },
} as const;
type SortKey = keyof typeof SORTS;

const PageQuery = Type.Object({
  sort: Type.Optional(Type.Union(Object.keys(SORTS).map((k) => Type.Literal(k)))),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  find: Type.Optional(Type.String({ maxLength: SEARCH_MAX })),
  conflicts: Type.Optional(
    Type.Union([
      Type.Literal('all'),
      Type.Literal('none'),
      Type.Literal('any'),
      ...CONFLICT_KINDS.map((k) => Type.Literal(k)),
    ]),
  ),
  marked: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('yes'), Type.Literal('no')])),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});
/** The page's filters and sort, and `as=records`: the group import's columns, not the editorial system's. */
const ExportQuery = Type.Object({
  ...PageQuery.properties,
  as: Type.Optional(Type.Literal('records')),
});
type PageFilters = {
  sort?: SortKey;
  order?: 'asc' | 'desc';
  find?: string;
  conflicts?: 'all' | 'none' | 'any' | ConflictKind;
  marked?: 'all' | 'yes' | 'no';
  page?: number;
};

/** Folders listed in the manuscripts' folder menu; past it, the menu is a field for a folder's name. */
const FOLDER_MENU_MAX = 500;

/**
 * Candidates shown a page. An organization may ask for 500 a manuscript: shown at once, with their
 * evidence, that was 1.6 MB of HTML, 0.7 s to render and seconds for the browser.
 */
const CANDIDATES_PAGE = 50;

/** The page's filters and sort as a query string ('' when none): links and forms that come back to it. */
function filtersQuery(f: PageFilters): string {
  const params = new URLSearchParams();
  for (const key of ['find', 'conflicts', 'marked', 'sort', 'order'] as const) {
    const value = f[key];
    if (value) params.set(key, value);
  }
  if (f.page && f.page > 1) params.set('page', String(f.page));
  const query = params.toString();
  return query ? `?${query}` : '';
}

const MarkParams = Type.Object({ manuscriptId: Id, authorId: Id });

export const CONFLICT_LABELS: Record<ConflictKind, string> = {
  coauth_conflicts: 'Co-authorship',
  aff_conflicts: 'Shared affiliation',
  retracted_articles: 'Retracted work',
  referenced_articles: 'Cited in the manuscript',
  external_coi: "Organization's flag",
};

const dateTime = (d: Date) => new Date(d).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** What a referee's row of the "as records" export is made of. */
type RecordSource = Pick<StoredCandidate, 'author_id' | 'name' | 'email' | 'orcid' | 'affiliation'>;

/**
 * The "as records" export, for an authors group: the group import's columns (RECORD_HEADERS) that a
 * candidate fills, in its order (a candidate has no articles: that column is left out, not written
 * empty), the corpus author's id as the client id (the referees taken into a group of the
 * organization's, to be found again there).
 */
const RECORD_EXPORT_VALUES: Partial<Record<RecordHeader, (r: RecordSource) => string | null>> = {
  client_id: (r) => `author-${r.author_id}`,
  name: (r) => r.name,
  emails: (r) => r.email,
  orcids: (r) => r.orcid,
  affiliations: (r) => r.affiliation,
};
const RECORD_EXPORT_COLUMNS = RECORD_HEADERS.filter((h) => RECORD_EXPORT_VALUES[h] !== undefined);
const asRecord = (r: RecordSource) => RECORD_EXPORT_COLUMNS.map((h) => RECORD_EXPORT_VALUES[h]!(r));

export function registerManuscriptPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/manuscripts/',
    action: 'read',
    schema: { querystring: ListQuery },
    handler: async (request, reply) => {
      const query = request.query as { folder?: string; q?: string; before?: number; after?: number };
      const organizationId = orgOf(request);
      // The menu lists up to FOLDER_MENU_MAX folders; past that (an organization may hold 10,000,
      // a menu of 2.9 MB of HTML and 0.16 s of CPU at each view) the folder is typed by its name.
      const menu = await listFolderNames(ctx.db, organizationId, FOLDER_MENU_MAX + 1);
      // A folder named rather than numbered (`?folder=JNL`): its id, or none of this organization's
      // (said so, with no manuscript listed), where any name was ignored and every folder shown.
      // Digits are a folder's id when the organization has that folder (leading zeros aside, as
      // the other options' are), else its name; a number no id can be (0, past 2,147,483,647, negative)
      // is a name only: passed on as an id, 9999999999 was refused by the database's integer column,
      // "A value has the wrong form for its field".
      const asked = query.folder?.trim() ?? '';
      const askedId = rowIdOf(asked);
      const chosen = asked ? await findFolderNamed(ctx.db, organizationId, asked, askedId) : null;
      const folderId = asked ? (chosen?.id ?? 0) : null;
      // How a folder not found is named back: by the number and the name asked, and why a number
      // that can be no folder's is not read as one.
      const noFolder =
        askedId !== null
          ? html`numbered ${askedId} or named “${isolate(asked)}”`
          : /^[-+]?\d+$/.test(asked)
            ? html`named “${isolate(asked)}”, and no folder is numbered so (${FOLDER_NUMBERS})`
            : html`named “${isolate(asked)}”`;
      const search = query.q ?? '';
      const [exact, page] = await Promise.all([
        search.trim() ? findByOriginId(ctx.db, organizationId, search) : null,
        listManuscripts(ctx.db, organizationId, {
          folderId,
          search,
          before: query.before ?? null,
          after: query.after ?? null,
          limit: PAGE_SIZE,
        }),
      ]);
      const keep = new URLSearchParams();
      if (folderId !== null) keep.set('folder', String(folderId));
      if (search) keep.set('q', search);
      const link = (extra: Record<string, number>) => {
        const params = new URLSearchParams(keep);
        for (const [k, v] of Object.entries(extra)) params.set(k, String(v));
        return `/dashboard/manuscripts/?${params.toString()}`;
      };
      const first = page.items[0];
      const last = page.items[page.items.length - 1];
      const backwards = query.after !== undefined && query.before === undefined;
      const hasNewer =
        first !== undefined &&
        (backwards ? page.more : query.before !== undefined || query.after !== undefined);
      const hasOlder = last !== undefined && (backwards ? true : page.more);
      return renderPage(ctx, request, reply, {
        title: 'Manuscripts',
        body: html`${
            mayDo(request, 'manuscripts_upload')
              ? html`<p><a href="${dashboardPath('manuscripts', 'upload')}">Upload a manuscript</a></p>`
              : null
          }
          <form method="get" action="/dashboard/manuscripts/" class="row" role="search">
            <div>
              <label for="q">Search titles or an origin id</label>
              <input id="q" name="q" type="search" value="${search}" />
            </div>
            <div>
              <label for="folder">Folder</label>
              ${
                menu.length > FOLDER_MENU_MAX
                  ? html`<input
                        id="folder"
                        name="folder"
                        type="search"
                        aria-describedby="folder-hint"
                        value="${chosen?.name ?? asked}"
                      />
                      <p id="folder-hint" class="hint">A folder's name; empty for all folders.</p>`
                  : html`<select id="folder" name="folder">
                      <option value="">All folders</option>
                      ${menu.map(
                        (f) =>
                          html`<option value="${f.id}" ${f.id === folderId ? html`selected` : null}>
                            ${f.name}
                          </option>`,
                      )}
                    </select>`
              }
            </div>
            <button type="submit">Search</button>
          </form>
          ${
            exact
              ? html`<p>
                  The manuscript whose origin id is ${isolate(exact.origin_id)}:
                  <a href="${dashboardPath('manuscripts', exact.id)}">${isolate(exact.title)}</a>
                </p>`
              : null
          }
          ${dataTable({
            caption: search
              ? html`Manuscripts matching “${isolate(search)}”`
              : 'Manuscripts by first upload, newest first',
            columns: ['Title', 'Origin id', 'Folder', 'Candidates', 'Marked referees', 'Last upload'],
            empty:
              query.before !== undefined || query.after !== undefined
                ? html`No ${query.before !== undefined ? 'older' : 'newer'} manuscripts.
                    <a href="${link({})}">Back to the newest</a>.`
                : folderId !== null && chosen === null
                  ? // An edited or another organization's link: the menu shows no folder chosen.
                    html`This organization has no folder ${noFolder}: choose one above.`
                  : search || folderId !== null
                    ? 'No manuscript matches.'
                    : 'No manuscripts yet: uploads appear here.',
            rows: page.items.map(
              (m) =>
                html`<tr>
                  <td class="given">
                    <a href="${dashboardPath('manuscripts', m.id)}">${m.title || '(no title)'}</a>
                  </td>
                  <td class="given"><code>${m.origin_id}</code></td>
                  <td class="given">${m.folder}</td>
                  <td>${m.candidates ?? '—'}</td>
                  <td>${m.marks}</td>
                  <td>${dateTime(m.updated_at)}</td>
                </tr>`,
            ),
          })}
          <nav class="pager" aria-label="Pages of manuscripts">
            ${hasNewer ? html`<a href="${link({ after: first.id })}" rel="prev">Newer</a>` : null}
            ${hasOlder ? html`<a href="${link({ before: last.id })}" rel="next">Older</a>` : null}
          </nav>`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/manuscripts/:manuscriptId/',
    action: 'read',
    schema: { params: Type.Object({ manuscriptId: Id }), querystring: PageQuery },
    handler: async (request, reply) => {
      const { manuscriptId } = request.params as { manuscriptId: number };
      const filters = request.query as PageFilters;
      const organizationId = orgOf(request);
      const manuscript = await requireManuscript(ctx.db, organizationId, manuscriptId);
      const [org, { stored, candidates, marks, otherMarks, flagged }, fields, values] = await Promise.all([
        requireOrganization(ctx.db, organizationId),
        candidatesAndMarks(ctx.db, organizationId, manuscript),
        listOwnerCustomFields(ctx.db, organizationId, 'proposal'),
        readCustomValues(ctx.db, organizationId, 'proposal', manuscriptId),
      ]);
      const [whyTitles, names] = await Promise.all([
        explainedWorkTitles(ctx.db, candidates),
        rowNames(
          ctx.db,
          organizationId,
          candidates,
          stored?.groupsSettings?.authors_groups.map((g) => g.id),
        ),
      ]);
      const journals = org.features.includes('recommend_journals')
        ? await journalsForManuscript(ctx, organizationId, {
            id: manuscript.id,
            originId: manuscript.origin_id,
          })
        : null;
      return renderPage(ctx, request, reply, {
        title: manuscript.title || `Manuscript ${isolateText(manuscript.origin_id)}`,
        body: html`${sectionLinks([
            { id: CUSTOM_FIELDS_ID, label: 'Custom fields' },
            { id: 'candidates', label: 'Candidates' },
            { id: 'journals', label: 'Recommended journals' },
          ])}
          ${summary(manuscript)} ${metadata(manuscript)}
          ${customValuesSection(request, {
            fields,
            values,
            action: `${dashboardPath('manuscripts', manuscriptId)}custom-values/`,
            editable: mayDo(request, 'manuscript_values_write'),
            what: 'manuscript',
          })}
          <h2 id="candidates">Candidates</h2>
          ${messageBeside(request, 'candidates')}
          ${
            stored
              ? html`<p class="hint">
                    Ranked at the last upload (${dateTime(stored.rankedAt)}); key concepts:
                    ${stored.concepts.join(', ') || 'none'}.
                  </p>
                  ${groupsSettingsNote(stored.groupsSettings, names.groups, manuscript.folder_id)}
                  ${candidateFilters(request, manuscriptId, filters)}
                  ${candidateTable(ctx, request, manuscriptId, candidates, marks, filters, whyTitles, { ...names, flagged, namesakes: namesakes(authorsForConflicts(manuscript), candidates) }, leftOut(org), !org.include_conflicts)}
                  ${otherMarksList(request, manuscript, otherMarks, filters, { base: ctx.config.publicBaseUrl, flagged })}`
              : html`<p class="muted">
                    No candidates: the last upload asked for none, or the organization's plan has no referee
                    finder.
                  </p>
                  ${exportLinks(manuscriptId, filters, 0, 0, otherMarks.length)}
                  ${otherMarksList(request, manuscript, otherMarks, filters, { base: ctx.config.publicBaseUrl, flagged })}`
          }
          <h2 id="journals">Recommended journals</h2>
          ${
            journals === null
              ? html`<p class="muted">The organization's plan has no journal recommendation.</p>`
              : journalTable(
                  journals,
                  await loadVenueIds(
                    ctx.db,
                    journals.map((j) => j.id),
                  ),
                  mayDo(request, 'journals_link') ? manuscript.folder_id : null,
                )
          }`,
      });
    },
  });

  // The candidates as the page lists them (its filters and sort, every page), or the marked referees
  // alone, as a CSV file for an editorial system (docs/dashboard.md, "Exports"). Every role that
  // reads the page may: the file holds what the page shows.
  dashboardRoute(scope, {
    method: 'GET',
    url: '/manuscripts/:manuscriptId/export/',
    action: 'read',
    schema: { params: Type.Object({ manuscriptId: Id }), querystring: ExportQuery },
    handler: async (request, reply) => {
      const { manuscriptId } = request.params as { manuscriptId: number };
      const filters = request.query as PageFilters & { as?: 'records' };
      const organizationId = orgOf(request);
      const manuscript = await requireManuscript(ctx.db, organizationId, manuscriptId);
      const { candidates, marks, flagged, ...all } = await candidatesAndMarks(
        ctx.db,
        organizationId,
        manuscript,
      );
      // The marks the page lists apart ("Also marked as referees") go with the marked referees, where
      // no filter of the candidates' own (a name, a conflict) is set: they are referees the editor
      // picked, and the page counts them.
      const otherMarks =
        filters.marked === 'yes' && !filters.find && (filters.conflicts ?? 'all') === 'all'
          ? all.otherMarks
          : [];
      // Their contact details read now, as a candidate's were at the upload (the same definition,
      // referee-finder/contacts.ts): the files had an empty name split, email and affiliation.
      const contacts = await candidateContacts(
        ctx.db,
        organizationId,
        otherMarks.map((m) => m.author_id),
      );
      const contactOfMark = (m: Mark & { name: string }) => contacts.get(m.author_id);
      const shown = filterCandidates(candidates, marks, filters, flagged);
      // A candidate named as a manuscript's author, which the page says on the row (conflictsCell):
      // the file said "None found" of them, and the editorial system got a referee who may be an author.
      const authorsNamed = namesakes(authorsForConflicts(manuscript), shown);
      const conflictsText = (c: StoredCandidate) =>
        [
          conflictKinds(c, flagged)
            .map((k) => CONFLICT_LABELS[k])
            .join('; ') || 'None found',
          authorsNamed.has(c.author_id)
            ? `named as the manuscript's author ${authorsNamed.get(c.author_id)!} (the name alone does not show whether this is the same person)`
            : null,
        ]
          .filter(Boolean)
          .join('; ');
      const lines =
        filters.as === 'records'
          ? [
              csvLine(RECORD_EXPORT_COLUMNS),
              ...shown.map((c) => csvLine(asRecord(c))),
              ...otherMarks.map((m) => {
                const c = contactOfMark(m);
                return csvLine(
                  asRecord({
                    ...m,
                    email: c?.email ?? null,
                    orcid: c?.orcid ?? null,
                    affiliation: c?.affiliation ?? null,
                  }),
                );
              }),
            ]
          : [
              csvLine(CANDIDATE_COLUMNS),
              ...shown.map((c) =>
                csvLine([
                  manuscript.origin_id,
                  c.author_id,
                  c.name,
                  c.first_name,
                  c.middle_name,
                  c.last_name,
                  c.email,
                  c.orcid,
                  c.affiliation,
                  c.score.toFixed(3),
                  c.hIndex,
                  c.citationsCount,
                  c.articlesCount,
                  conflictsText(c),
                  marks.get(c.author_id) ?? null,
                  c.url,
                ]),
              ),
              ...otherMarks.map((m) => {
                const c = contactOfMark(m);
                return csvLine([
                  manuscript.origin_id,
                  m.author_id,
                  m.name,
                  c?.first_name,
                  c?.middle_name,
                  c?.last_name,
                  c?.email,
                  c?.orcid,
                  c?.affiliation,
                  // The score and metrics are the upload's ranking's, which left the author out.
                  ...Array<null>(4).fill(null),
                  flagged.has(m.author_id)
                    ? `${CONFLICT_LABELS.external_coi}; others not known: not among the last upload's candidates`
                    : "Not known: not among the last upload's candidates",
                  m.marked_by,
                  authorUrl(ctx.config.publicBaseUrl, m.author_id),
                ]);
              }),
            ];
      const what = filters.marked === 'yes' ? 'referees' : 'candidates';
      csvDownload(
        reply,
        csvFileName([
          what,
          ...(filters.as === 'records' ? ['records'] : []),
          manuscript.origin_id,
          fileDate(),
        ]),
      );
      return reply.send(CSV_BOM + lines.join(''));
    },
  });

  registerCustomValuesSave(scope, ctx, {
    owner: 'proposal',
    url: '/manuscripts/:manuscriptId/custom-values/',
    param: 'manuscriptId',
    action: 'manuscript_values_write',
    page: (manuscriptId) => dashboardPath('manuscripts', manuscriptId),
    requireRow: requireManuscript,
    what: 'manuscript',
  });

  for (const marked of [true, false]) {
    dashboardRoute(scope, {
      method: 'POST',
      url: `/manuscripts/:manuscriptId/candidates/:authorId/${marked ? 'mark' : 'unmark'}/`,
      action: 'candidates_mark',
      schema: { params: MarkParams, querystring: PageQuery, body: CsrfOnly },
      back: backToCandidates,
      handler: async (request, reply) => {
        const target = await candidateOfRequest(ctx, request, { adding: marked });
        const { organizationId, manuscriptId, authorId, name } = target;
        const by = sessionOf(request).user.email.toLowerCase();
        // Marked already by this user (a second tab, Back and the button again): nothing changes, and
        // no second "marked" event goes to the editorial system. (An unmark with nothing to unmark
        // makes none either: changeMark.) Marked by another editor, the mark becomes this one's.
        if (marked && (await marksOf(ctx.db, manuscriptId, [authorId])).get(authorId) === by) {
          const back = await backToCandidate(ctx, request, target, 'referee');
          return redirectTo(ctx, request, reply, back.url, {
            kind: 'ok',
            message: `${name} was already marked as referee by you.${back.said}`,
            beside: back.beside,
          });
        }
        await changeMark(ctx.db, { organizationId, manuscriptId, authorId, marked, by });
        ctx.webhooks.poke();
        // Back to the row (an editor marking several keeps their place), else to the table.
        const back = await backToCandidate(ctx, request, target, 'referee');
        // Marked with a conflict of interest (the editor's choice to make) is said, not passed over:
        // the row's evidence was one Tab away, or, filtered, not on the screen at all.
        const warning =
          marked && back.conflicts.length > 0
            ? ` Their row lists a conflict with this manuscript: ${back.conflicts.join(', ')} (see its evidence).`
            : '';
        return redirectTo(ctx, request, reply, back.url, {
          kind: 'ok',
          message:
            (marked ? `${name} is marked as referee.` : `${name} is no longer marked as referee.`) +
            warning +
            back.said,
          beside: back.beside,
        });
      },
    });
  }

  registerConflictFlags(scope, ctx);
}

/**
 * An editor flags a candidate as in conflict with the manuscript (or takes the flag off). The flag
 * is the organization's declared conflict (`external_coi`) for this manuscript's origin id: the
 * next upload reports it, and leaves the candidate out when the organization excludes conflicts.
 * The stored candidates are not ranked again here, as a mark does not rank them again.
 */
function registerConflictFlags(scope: FastifyInstance, ctx: AppContext): void {
  for (const flag of [true, false]) {
    dashboardRoute(scope, {
      method: 'POST',
      url: `/manuscripts/:manuscriptId/candidates/:authorId/${flag ? 'conflict' : 'no-conflict'}/`,
      action: 'candidates_mark',
      schema: { params: MarkParams, querystring: PageQuery, body: CsrfOnly },
      back: backToCandidates,
      handler: async (request, reply) => {
        const target = await candidateOfRequest(ctx, request, { adding: flag });
        const { organizationId, authorId, name } = target;
        const originId = target.manuscript.origin_id;
        const changed = flag
          ? await flagAuthorConflict(ctx.db, organizationId, originId, authorId)
          : await unflagAuthorConflict(ctx.db, organizationId, originId, authorId);
        const message = !changed
          ? flag
            ? `${name} was already flagged as a conflict of interest for this manuscript.`
            : `${name} had no conflict flag of this manuscript to take off.`
          : flag
            ? `${name} is flagged as a conflict of interest for this manuscript: the next upload reports it, and leaves them out if the settings exclude candidates with conflicts.`
            : `${name} is no longer flagged as a conflict of interest for this manuscript, from the next upload.`;
        const back = await backToCandidate(ctx, request, target, 'conflict');
        return redirectTo(ctx, request, reply, back.url, {
          kind: 'ok',
          message: message + back.said,
          beside: back.beside,
        });
      },
    });
  }
}

interface CandidateTarget {
  organizationId: number;
  manuscriptId: number;
  manuscript: Awaited<ReturnType<typeof requireManuscript>>;
  authorId: number;
  /** The author's name isolated for direction (`isolateText`), for the sentences that name them. */
  name: string;
  /** Whether the author is among the last upload's candidates. */
  candidate: boolean;
}

/**
 * The manuscript and author a candidate's button names (a mark, a conflict flag), both checked. The
 * page sets them on the last upload's candidates only (any may be taken off): a page loaded before
 * a re-upload may offer one no longer among them, which is said on the page (409), not a 404.
 */
async function candidateOfRequest(
  ctx: AppContext,
  request: FastifyRequest,
  options: { adding: boolean },
): Promise<CandidateTarget> {
  const { manuscriptId, authorId } = request.params as { manuscriptId: number; authorId: number };
  const organizationId = orgOf(request);
  const manuscript = await requireManuscript(ctx.db, organizationId, manuscriptId);
  const { rows } = await ctx.db.query<{ display_name: string }>(
    'SELECT display_name FROM authors WHERE id = $1',
    [authorId],
  );
  if (!rows[0]) throw errors.notFound('Author');
  // Said in flash messages, inside English sentences.
  const name = isolateText(rows[0].display_name);
  const candidate = await isStoredCandidate(ctx.db, manuscriptId, authorId);
  if (options.adding && !candidate) {
    throw errors.conflict(
      `${name} is no longer among this manuscript's candidates: it was uploaded again since the page was loaded. Here are its candidates now.`,
    );
  }
  return { organizationId, manuscriptId, manuscript, authorId, name, candidate };
}

/** The manuscript page as the button's page had it (filters, sort, page), at its candidates table. */
function backToCandidates(request: FastifyRequest): string {
  const { manuscriptId } = request.params as { manuscriptId: number };
  return `${dashboardPath('manuscripts', manuscriptId)}${filtersQuery(request.query as PageFilters)}#candidates`;
}

/**
 * The manuscript page as the button's page had it (filters, sort, page), at the message said under
 * the button pressed, in its cell (`beside`, named by `button`: the row's "Mark as referee"/"Unmark",
 * or its conflict flag's), which the address's fragment focuses: the editor reads what changed with
 * the button and "Marked by" just above it, Shift+Tab is that button, the next Tab goes on down the
 * row, where, back at the row's top, it went through the name, the articles and "Why this candidate"
 * again (9 Tabs at 375 px) to reach the button, and the message was at the page's top, out of view
 * (and, said in a row under the candidate's, a tall row's button was out of view above it). And,
 * when that page's filters no longer list the candidate (marked under "Not marked", flagged under
 * "Without conflicts", unmarked under "Marked"), at the row now standing where theirs was (the next
 * one, else the one before), with a sentence saying why the row is gone (`said`, to end the message).
 * `conflicts`: the candidate's conflicts of interest as the row names them.
 * It came back to an anchor no longer on the page: at the page's top, the next Tab on the skip link,
 * an editor going down the list by the keyboard had to find their place again from the header.
 */
async function backToCandidate(
  ctx: AppContext,
  request: FastifyRequest,
  target: CandidateTarget,
  button: 'referee' | 'conflict',
): Promise<{ url: string; said: string; conflicts: string[]; beside?: string }> {
  const f = request.query as PageFilters;
  const at = (anchor: string) =>
    `${dashboardPath('manuscripts', target.manuscriptId)}${filtersQuery(f)}#${anchor}`;
  if (!target.candidate) return { url: at('candidates'), said: '', conflicts: [] };
  const candidates = (await loadCandidates(ctx.db, target.manuscriptId))?.candidates ?? [];
  const [allMarks, flagged] = await Promise.all([
    marksOfManuscript(ctx.db, target.manuscriptId),
    authorsFlaggedFor(
      ctx.db,
      target.organizationId,
      target.manuscript.origin_id,
      candidates.map((c) => c.author_id),
    ),
  ]);
  const marks = new Map(allMarks.map((m) => [m.author_id, m.marked_by]));
  // The candidate's conflicts as the row names them (an editor's flag made since with the rest).
  const kinds = new Set(
    candidates.find((c) => c.author_id === target.authorId)?.conflicts.map((c) => c.kind),
  );
  if (flagged.has(target.authorId)) kinds.add('external_coi');
  const conflicts = CONFLICT_KINDS.filter((k) => kinds.has(k)).map((k) => CONFLICT_LABELS[k]);
  // The rows the page will show, as candidateTable chooses them.
  const matching = filterCandidates(candidates, marks, f, flagged);
  const page = Math.min(f.page ?? 1, pageCount(matching.length, CANDIDATES_PAGE));
  const shown = new Set(
    matching.slice((page - 1) * CANDIDATES_PAGE, page * CANDIDATES_PAGE).map((c) => c.author_id),
  );
  // Still listed: the message said under the button pressed, in its cell (`messageBeside`), where it
  // was at the page's top, out of view of the row it was about.
  if (shown.has(target.authorId)) {
    const beside = `${button}-${target.authorId}`;
    return { url: at(beside), said: '', conflicts, beside };
  }
  // Every candidate in the page's order, to find the rows on either side of the one gone.
  const ordered = filterCandidates(candidates, marks, { sort: f.sort, order: f.order }, flagged);
  const position = ordered.findIndex((c) => c.author_id === target.authorId);
  const next = ordered.slice(position + 1).find((c) => shown.has(c.author_id));
  const previous = ordered
    .slice(0, Math.max(position, 0))
    .reverse()
    .find((c) => shown.has(c.author_id));
  const near = next ?? previous;
  const where = next ? ': here is the next candidate' : previous ? ': here is the one before' : '';
  // The message said above that row (above the table if none), where the page comes back to
  // (redirectTo): at the page's top it was out of view of the row, and of the editor's place in the list.
  const beside = near ? `candidate-${near.author_id}` : 'candidates';
  return {
    url: at(beside),
    said: ` This page's filters no longer list them${where}.`,
    conflicts,
    beside,
  };
}

/**
 * The authors groups settings the last upload ranked with (stored with its candidates): an editor
 * looking at a short list (limit_to) or boosted scores sees why, whatever the folder's settings are
 * now. Groups link to their page by today's name, or say they were deleted (with the name then).
 */
function groupsSettingsNote(
  settings: AuthorsGroupsSettings | null | undefined,
  groupNames: ReadonlyMap<number, string>,
  folderId: number,
): Html {
  const folder = html`<a href="${dashboardPath('folders', folderId)}">the folder's settings now</a>`;
  const lead = html`<strong>Authors groups at that upload:</strong>`;
  if (settings === undefined) {
    return html`<p class="hint" id="groups-settings">
      ${lead} not recorded (ranked before they were kept); see ${folder}.
    </p>`;
  }
  if (settings === null) {
    return html`<p class="hint" id="groups-settings">
      ${lead} none: ranked over the whole corpus, no group changed the list or the scores; see ${folder}.
    </p>`;
  }
  const groups = settings.authors_groups.map((g, k) => {
    const name = groupNames.get(g.id);
    const link = name
      ? html`<a href="${dashboardPath('groups', g.id)}">${isolate(name)}</a>`
      : html`${isolate(g.name)} <span class="muted">(deleted group ${g.id})</span>`;
    return html`${k > 0 ? ', ' : ''}${link}`;
  });
  const effect =
    settings.effect === 'limit_to'
      ? html`limited to the members of ${groups}: no one else could be a candidate`
      : settings.effect === 'boost'
        ? html`boost ×${String(settings.boost_multiplier ?? 1)} for the members of ${groups}: their scores
          were multiplied`
        : html`highlight the members of ${groups}: their groups are shown, the list and scores unchanged`;
  return html`<p class="hint" id="groups-settings">${lead} ${effect}; see ${folder}.</p>`;
}

/**
 * What the organization's settings leave out of every upload's candidates, or null. An empty list
 * said only "found no candidate" when the settings had left everyone out (the demo corpus has no
 * email, so excluding candidates without one leaves none). The settings are today's: they may have
 * changed since the upload, hence "now".
 */
function leftOut(org: { include_conflicts: boolean; include_without_email: boolean }): string | null {
  const parts = [
    org.include_without_email ? null : 'candidates without an email',
    org.include_conflicts ? null : 'candidates with a conflict of interest',
  ].filter((part): part is string => part !== null);
  return parts.length ? parts.join(' and ') : null;
}

/**
 * Marks of authors who are not among the last upload's candidates, each with the organization's flag
 * where it stands (`flagged`, as the candidates list says it) and its unmark button, which comes back
 * to the page as it was filtered, sorted and paged (`f`), as the table's buttons do.
 */
function otherMarksList(
  request: FastifyRequest,
  manuscript: { id: number; origin_id: string },
  marks: ReadonlyArray<Mark & { name: string }>,
  f: PageFilters,
  flag: { base: string; flagged: ReadonlySet<number> },
): Html | null {
  if (!marks.length) return null;
  const manuscriptId = manuscript.id;
  const canMark = mayDo(request, 'candidates_mark');
  return html`<h3>Also marked as referees</h3>
    <p class="hint">Not among the last upload's candidates.</p>
    <ul class="other-marks">
      ${marks.map(
        (m) =>
          html`<li>
            ${isolate(m.name)} (author ${m.author_id}), marked by ${isolate(m.marked_by)}
            ${
              // The organization's flag stands (kept by origin id), as the export's conflicts cell says:
              // in the candidates list's words. What else the ranking would find is not known.
              flag.flagged.has(m.author_id)
                ? conflictList(flag.base, [
                    {
                      kind: 'external_coi',
                      evidence: {
                        origin_id: manuscript.origin_id,
                        matched: 'author_id',
                        value: String(m.author_id),
                      },
                    },
                  ])
                : null
            }
            ${
              canMark
                ? actionButton(request, {
                    action:
                      dashboardPath('manuscripts', manuscriptId, 'candidates', m.author_id, 'unmark') +
                      filtersQuery(f),
                    label: html`Unmark<span class="visually-hidden"> ${isolate(m.name)}</span>`,
                    kind: 'secondary',
                  })
                : null
            }
          </li>`,
      )}
    </ul>`;
}

function summary(m: ManuscriptDetail): Html {
  return html`<dl>
    <dt>Origin id</dt>
    <dd><code>${isolate(m.origin_id)}</code> (manuscript ${m.id})</dd>
    <dt>Folder</dt>
    <dd><a href="${dashboardPath('folders', m.folder_id)}">${m.folder}</a></dd>
    <dt>Uploaded</dt>
    <dd>first ${dateTime(m.created_at)}, last ${dateTime(m.updated_at)}</dd>
    <dt>Source file</dt>
    <dd>
      ${
        m.source_file || m.source_format
          ? html`${isolate(m.source_file ?? '(unnamed)')}
            (${m.source_format?.toUpperCase() ?? 'unknown format'}):
            ${m.parse_error ? html`not parsed: ${m.parse_error}` : html`${countOf(m.parsed_text_len, 'character', 'characters')}, ${countOf(m.parsed_references, 'reference', 'references')} read`}`
          : 'none sent'
      }
    </dd>
    ${
      m.warnings.length
        ? html`<dt>Warnings</dt>
            <dd>
              <ul>
                ${m.warnings.map((w) => html`<li>${w}</li>`)}
              </ul>
            </dd>`
        : null
    }
  </dl>`;
}

function authorList(authors: ReadonlyArray<{ name: string; detail: string[] }>): Html {
  if (!authors.length) return html`<span class="muted">none</span>`;
  return html`<ol>
    ${authors.map((a) => html`<li>${isolate(a.name)}${a.detail.length ? html` <span class="muted">(${a.detail.map((d, i) => html`${i > 0 ? '; ' : ''}${isolate(d)}`)})</span>` : null}</li>`)}
  </ol>`;
}

function metadata(m: ManuscriptDetail): Html {
  const supplied = m.supplied;
  const parsed = m.parsed;
  const none = html`<span class="muted">—</span>`;
  // An empty parsed cell says why: the file was read and held none (an editor could not tell that
  // from a file never sent, or not read), or there was no parse at all.
  const notParsed = m.parse_error
    ? html`<span class="muted">not read (the file could not be parsed)</span>`
    : m.source_file || m.source_format
      ? html`<span class="muted">not found in the file</span>`
      : html`<span class="muted">no file sent</span>`;
  const row = (label: string, s: Html | string | null, p: Html | string | null, used: Html | string) =>
    html`<tr role="row">
      <th scope="row" role="rowheader">${label}</th>
      ${stackedCell('Supplied', s || none)} ${stackedCell('Parsed', p || notParsed)}
      ${stackedCell('Used', used || none)}
    </tr>`;
  const table = dataTable({
    caption: 'What was supplied, what was parsed from the file, and what was used',
    columns: ['Field', 'Supplied', 'Parsed', 'Used'],
    stacked: true,
    rows: [
      row('Title', supplied.title, parsed?.title ?? null, m.title),
      row('Abstract', supplied.abstract, parsed?.abstract ?? null, m.abstract),
      row('Keywords', null, parsed?.keywords.join(', ') ?? null, m.keywords.join(', ')),
      row(
        'Authors',
        authorList(
          supplied.authors.map((a) => ({
            name: a.name,
            detail: [a.email, a.orcid, a.affiliation].filter((x): x is string => !!x),
          })),
        ),
        parsed
          ? authorList(
              parsed.authors.map((a) => ({
                name: a.name,
                detail: [...a.emails, a.orcid, ...a.affiliations].filter((x): x is string => !!x),
              })),
            )
          : null,
        authorList(
          m.authors.map((a) => ({
            name: a.name,
            detail: [a.email, a.orcid, a.affiliation].filter((x): x is string => !!x),
          })),
        ),
      ),
    ],
  });
  // The file's authors the form does not name: not the manuscript's authors by the setting, but its
  // authors for conflicts, as the upload stored them (src/manuscripts/merge.ts). Not worked out again
  // here: an upload made before they were kept was ranked without them, and its page lists none.
  const fileOnly = m.file_only_authors ?? [];
  return html`<p id="used-rule">${usedRule(m)}</p>
    ${table}
    ${
      fileOnly.length
        ? html`<div id="file-only-authors">
            <p>
              Authors read from the file, not in the form; used for conflicts (never candidates), not listed
              as the manuscript's authors:
            </p>
            ${authorList(
              fileOnly.map((a) => ({
                name: a.name,
                detail: [a.email, a.orcid, a.affiliation].filter((x): x is string => !!x),
              })),
            )}
          </div>`
        : null
    }`;
}

/**
 * Which side the "Used" column came from: the organization's `prefer` setting as the upload merged by
 * it (stored with the manuscript: the setting may have changed since), in the merge's own rules
 * (src/manuscripts/merge.ts, docs/manuscript-upload.md "Merging"). The page showed three columns and
 * left the editor to work out which setting chose between them.
 */
function usedRule(m: ManuscriptDetail): string {
  if (!m.parsed) return 'No file was read for this manuscript: what was supplied was used.';
  if (m.prefer === 'parsed')
    return "Used: what was parsed from the file, where the file had it, else what was supplied; the supplied authors the file does not name follow the file's. The organization's setting at this upload: prefer what was parsed from the file.";
  if (m.prefer === 'supplied')
    return "Used: what was supplied, where it was given, else what was parsed from the file; the file's authors are used only when none were supplied (those the form does not name count for conflicts only, below). The organization's setting at this upload: prefer the supplied fields.";
  return "Used: merged by the organization's setting (prefer what was parsed from the file or the supplied fields), which was not recorded with this manuscript's last upload (made before it was kept).";
}

function candidateFilters(request: FastifyRequest, manuscriptId: number, f: PageFilters): Html {
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}" ${value === (current ?? 'all') ? html`selected` : null}>${label}</option>`;
  void request;
  return html`<form
    method="get"
    action="${dashboardPath('manuscripts', manuscriptId)}#candidates"
    class="row"
  >
    <div>
      <label for="find">Name, email or affiliation</label>
      <input id="find" name="find" type="search" value="${f.find ?? ''}" />
    </div>
    <div>
      <label for="conflicts">Conflicts</label>
      <select id="conflicts" name="conflicts">
        ${option('all', 'All candidates', f.conflicts)} ${option('none', 'Without conflicts', f.conflicts)}
        ${option('any', 'With any conflict', f.conflicts)}
        ${CONFLICT_KINDS.map((k) => option(k, `With: ${CONFLICT_LABELS[k]}`, f.conflicts))}
      </select>
    </div>
    <div>
      <label for="marked">Marked as referee</label>
      <select id="marked" name="marked">
        ${option('all', 'All', f.marked)} ${option('yes', 'Marked', f.marked)}
        ${option('no', 'Not marked', f.marked)}
      </select>
    </div>
    ${f.sort ? html`<input type="hidden" name="sort" value="${f.sort}" />` : null}
    ${f.order ? html`<input type="hidden" name="order" value="${f.order}" />` : null}
    <button type="submit">Filter</button>
  </form>`;
}

/**
 * A manuscript's candidates of its last upload and its marks, as its page and its export read them:
 * the marks by author, those of authors the last upload did not list apart (made by the CLI, or before
 * a re-upload changed the candidates: shown apart, so that the page accounts for every mark it
 * counts), and the candidates flagged by an editor since the upload.
 */
async function candidatesAndMarks(
  db: Queryable,
  organizationId: number,
  manuscript: { id: number; origin_id: string },
) {
  const [stored, allMarks] = await Promise.all([
    loadCandidates(db, manuscript.id),
    marksOfManuscript(db, manuscript.id),
  ]);
  const candidates = stored?.candidates ?? [];
  const listed = new Set(candidates.map((c) => c.author_id));
  const otherMarks = allMarks.filter((m) => !listed.has(m.author_id));
  // The marks apart too: a referee flagged, then left out of the candidates by an upload since, is
  // still flagged (the export said "Not known" of their conflicts).
  const flagged = await authorsFlaggedFor(db, organizationId, manuscript.origin_id, [
    ...candidates.map((c) => c.author_id),
    ...otherMarks.map((m) => m.author_id),
  ]);
  return {
    stored,
    candidates,
    marks: new Map(allMarks.map((m) => [m.author_id, m.marked_by])),
    otherMarks,
    flagged,
  };
}

/** The columns of a manuscript's candidates exported (the route's lines follow them). */
const CANDIDATE_COLUMNS = [
  'Manuscript origin id',
  'Author id',
  'Name',
  'First name',
  'Middle name',
  'Last name',
  'Email',
  'ORCID iD',
  'Affiliation',
  'Score',
  'h-index',
  'Citations',
  'Articles',
  'Conflicts',
  'Marked as referee by',
  'Profile',
];

/** A candidate's kinds of conflict: the upload's, and the organization's flag added since (`flagged`). */
function conflictKinds(c: StoredCandidate, flagged: ReadonlySet<number>): ConflictKind[] {
  const kinds = new Set(c.conflicts.map((x) => x.kind));
  if (flagged.has(c.author_id)) kinds.add('external_coi');
  return CONFLICT_KINDS.filter((k) => kinds.has(k));
}

/**
 * Candidates kept by the page's filters, in its order (score, highest first, by default). A candidate
 * an editor flagged since the upload (`flagged`) has the organization's conflict already: "Without
 * conflicts" listed them, for marking as referees, until the next upload.
 */
export function filterCandidates(
  candidates: readonly StoredCandidate[],
  marks: Map<number, string>,
  f: PageFilters,
  flagged: ReadonlySet<number>,
): StoredCandidate[] {
  // Each word typed, in any order and without its accents, is found in the name, the email or the
  // affiliation: "derek wong" finds Derek F. Wong and "glavas" Goran Glavaš, which the whole text
  // typed, as one piece with its accents, did not.
  const words = foldAccents(f.find ?? '')
    .split(/\s+/)
    .filter((w) => w !== '');
  const kept = candidates.filter((c) => {
    if (words.length > 0) {
      const haystack = foldAccents([c.name, c.email ?? '', c.affiliation ?? ''].join('\n'));
      if (!words.every((w) => haystack.includes(w))) return false;
    }
    const kinds = new Set(conflictKinds(c, flagged));
    if (f.conflicts === 'none' && kinds.size > 0) return false;
    if (f.conflicts === 'any' && kinds.size === 0) return false;
    if (
      f.conflicts &&
      CONFLICT_KINDS.includes(f.conflicts as ConflictKind) &&
      !kinds.has(f.conflicts as ConflictKind)
    ) {
      return false;
    }
    if (f.marked === 'yes' && !marks.has(c.author_id)) return false;
    if (f.marked === 'no' && marks.has(c.author_id)) return false;
    return true;
  });
  const sort = f.sort ?? 'score';
  const dir = (f.order ?? (SORTS[sort].numeric ? 'desc' : 'asc')) === 'asc' ? 1 : -1;
  return kept.sort((a, b) => {
    const d =
      sort === 'name'
        ? a.last_name.localeCompare(b.last_name) || a.name.localeCompare(b.name)
        : a[sort] - b[sort];
    return d * dir || b.score - a.score || a.author_id - b.author_id;
  });
}

/**
 * Said when a conflicts filter finds nobody while the settings leave out candidates with a conflict:
 * "With any conflict" empty read as "nobody here has a conflict", where the upload had left every
 * such candidate out.
 */
function conflictsNote(conflictsLeftOut: boolean, f: PageFilters): Html | null {
  if (!conflictsLeftOut || f.conflicts === undefined || f.conflicts === 'all' || f.conflicts === 'none') {
    return null;
  }
  return html` The <a href="/dashboard/settings/">settings</a> now leave out candidates with a conflict of
    interest: an upload made with them lists none found then, so this filter shows only the flags added on
    this page since.`;
}

function candidateTable(
  ctx: AppContext,
  request: FastifyRequest,
  manuscriptId: number,
  all: readonly StoredCandidate[],
  marks: Map<number, string>,
  f: PageFilters,
  whyTitles: WorkTitles,
  names: RowFacts,
  /** What the organization's settings leave out, said when the upload found no candidate. */
  settingsLeaveOut: string | null,
  /** Whether the settings now leave out candidates with a conflict of interest. */
  conflictsLeftOut: boolean,
): Html {
  const matching = filterCandidates(all, marks, f, names.flagged);
  const pages = pageCount(matching.length, CANDIDATES_PAGE);
  const page = Math.min(f.page ?? 1, pages);
  const shown = matching.slice((page - 1) * CANDIDATES_PAGE, page * CANDIDATES_PAGE);
  const spoken = candidateNames(shown);
  const pageLink = (n: number) =>
    `${dashboardPath('manuscripts', manuscriptId)}${filtersQuery({ ...f, page: n })}#candidates`;
  const base = ctx.config.publicBaseUrl;
  const canMark = mayDo(request, 'candidates_mark');
  const sort = f.sort ?? 'score';
  const header = (key: SortKey) => {
    const current = sort === key;
    const defaultDir = SORTS[key].numeric ? 'desc' : 'asc';
    const dir = current ? (f.order ?? defaultDir) : defaultDir;
    const next = current ? (dir === 'asc' ? 'desc' : 'asc') : defaultDir;
    const query = filtersQuery({
      find: f.find,
      conflicts: f.conflicts,
      marked: f.marked,
      sort: key,
      order: next,
    });
    return html`<th
      scope="col"
      ${current ? html`aria-sort="${dir === 'asc' ? 'ascending' : 'descending'}"` : null}
    >
      <a href="${dashboardPath('manuscripts', manuscriptId)}${query}#candidates"
        >${SORTS[key].label}<span class="visually-hidden"
          >, sort ${next === 'asc' ? 'ascending' : 'descending'}</span
        ></a
      >
    </th>`;
  };
  return html`${
      all.length
        ? // A score has no unit: 9.6 read as out of 10, and a manuscript's 7 as better than another's 3.
          html`<p class="hint">
            Score: how much more closely a candidate's works match the manuscript than those of the other
            candidates found for it (the match of their best works and that of all their works read as one,
            each against the others', added), multiplied by a folder's boost where one applied. Higher is
            closer; it has no unit and no maximum, and compares this upload's candidates only, not
            manuscripts.
          </p>`
        : null
    }
    ${exportLinks(manuscriptId, f, matching.length, all.length, marks.size)}
    <table class="candidates">
      <caption>
        ${`${formatCount(matching.length)} of ${countOf(all.length, 'candidate', 'candidates')}`}${
          pages > 1
            ? `, ${formatCount((page - 1) * CANDIDATES_PAGE + 1)}-${formatCount((page - 1) * CANDIDATES_PAGE + shown.length)} shown`
            : ''
        }
      </caption>
      <thead>
        <tr>
          ${header('name')} ${header('score')} ${header('hIndex')} ${header('citationsCount')}
          ${header('articlesCount')}
          <th scope="col">Relevant concepts and articles</th>
          <th scope="col">Authors groups</th>
          <th scope="col">Conflicts</th>
          <th scope="col">Referee</th>
        </tr>
      </thead>
      <tbody>
        ${
          shown.length === 0
            ? html`<tr>
                <td colspan="9" class="muted">
                  ${
                    all.length === 0
                      ? html`The last upload found no
                        candidate.${
                          settingsLeaveOut
                            ? html` The <a href="/dashboard/settings/">settings</a> now leave out
                                ${settingsLeaveOut}.`
                            : null
                        }`
                      : // A way back to the whole list, sorted as it was, where the editor had to
                        // empty each filter and send the form again.
                        html`No candidate matches these filters.${conflictsNote(conflictsLeftOut, f)}
                          <a
                            href="${dashboardPath('manuscripts', manuscriptId)}${filtersQuery({
                              sort: f.sort,
                              order: f.order,
                            })}#candidates"
                            >Show all ${countOf(all.length, 'candidate', 'candidates')}</a
                          >`
                  }
                </td>
              </tr>`
            : null
        }
        ${shown.map((c) => {
          const markedBy = marks.get(c.author_id) ?? null;
          const said = spoken.get(c.author_id)!;
          // The message of a mark or a flag whose row left the filters, above the row now in its place.
          const message = messageBeside(request, `candidate-${c.author_id}`);
          return html`${
              message
                ? html`<tr class="row-message">
                    <td colspan="9">${message}</td>
                  </tr>`
                : null
            }
            <tr id="candidate-${c.author_id}">
              <td>
                <a href="${c.url}">${c.name}</a>
                <div class="hint">
                  ${[c.first_name, c.middle_name, c.last_name, c.suffix]
                    .filter((part): part is string => !!part)
                    .map((part) => html`${isolate(part)} · `)}author
                  ${c.author_id}
                </div>
                <div>
                  ${c.email ? html`<a href="${mailtoHref(c.email)}">${c.email}</a>` : html`<span class="muted">no email</span>`}
                </div>
                ${c.orcid ? html`<div>ORCID <code>${c.orcid}</code></div>` : null}
                ${c.affiliation ? html`<div>${c.affiliation}</div>` : null}
              </td>
              <td>${c.score.toFixed(3)}</td>
              <td>${formatCount(c.hIndex)}</td>
              <td>${formatCount(c.citationsCount)}</td>
              <td>${formatCount(c.articlesCount)}</td>
              <td class="evidence">
                ${c.relevant_concepts.length ? html`<div>${c.relevant_concepts.join(', ')}</div>` : null}
                ${
                  c.relevant_articles.length
                    ? html`<ul>
                        ${c.relevant_articles.map(
                          (a) =>
                            html`<li>
                              <a href="${a.url}">${isolate(a.title)}</a> (${a.year || 'year unknown'})
                            </li>`,
                        )}
                      </ul>`
                    : null
                }
                ${c.why ? whyDetails(base, said.html, c.why, whyTitles) : null}
              </td>
              <td class="given">
                ${
                  c.authors_groups.length
                    ? c.authors_groups.map(
                        (g) =>
                          html`<div>
                            ${
                              names.groups.has(g.group_id)
                                ? html`<a href="${dashboardPath('groups', g.group_id)}"
                                    >${isolate(names.groups.get(g.group_id)!)}</a
                                  >`
                                : // Deleted since this upload: the answer stays, the group's page is gone.
                                  html`<span class="muted">deleted group ${g.group_id}</span>`
                            }${g.client_id ? html` (${isolate(g.client_id)})` : null}
                          </div>`,
                      )
                    : html`<span class="muted">—</span>`
                }
              </td>
              <td>
                ${conflictsCell(base, c, names)}
                ${canMark ? conflictFlag(request, manuscriptId, c, names.flagged.has(c.author_id), f, said.text) : null}
                ${
                  // A flag's message, under the button pressed (the row still listed).
                  messageBeside(request, `conflict-${c.author_id}`)
                }
              </td>
              <td>
                ${markedBy ? html`<div>Marked by ${markedBy}</div>` : html`<div class="muted">Not marked</div>`}
                ${
                  canMark
                    ? actionButton(request, {
                        // Back to the page as it was filtered and sorted.
                        action:
                          dashboardPath(
                            'manuscripts',
                            manuscriptId,
                            'candidates',
                            c.author_id,
                            markedBy ? 'unmark' : 'mark',
                          ) + filtersQuery(f),
                        label: html`${markedBy ? 'Unmark' : 'Mark as referee'}<span class="visually-hidden">
                            ${said.html}</span
                          >`,
                        id: `referee-${c.author_id}`,
                        ...(markedBy ? { kind: 'secondary' as const } : {}),
                      })
                    : null
                }
                ${
                  // A mark's message, under the button pressed (the row still listed).
                  messageBeside(request, `referee-${c.author_id}`)
                }
              </td>
            </tr>`;
        })}
      </tbody>
    </table>
    ${pagerNav({ page, pages, link: pageLink, label: 'Pages of candidates' })}`;
}

/**
 * The links to the candidates as a CSV file: those the filters list (every page, in the page's
 * order), and the marked referees alone, for an editorial system.
 */
function exportLinks(
  manuscriptId: number,
  f: PageFilters,
  matching: number,
  all: number,
  marked: number,
): Html | null {
  if (all === 0 && marked === 0) return null;
  const exportPath = (filters: PageFilters) =>
    `${dashboardPath('manuscripts', manuscriptId, 'export')}${filtersQuery({ ...filters, page: undefined })}`;
  const filtered = !!f.find || (f.conflicts ?? 'all') !== 'all' || (f.marked ?? 'all') !== 'all';
  // No candidate left, marks remaining (the last upload ranked none, or asked for none): the page
  // offered "all 0 candidates", a file of its header alone. What there is instead: the marked referees.
  if (all === 0)
    return html`<p>
      No candidate to export. Export as CSV:
      <a href="${exportPath({ marked: 'yes' })}" download
        >the ${countOf(marked, 'marked referee', 'marked referees')} only</a
      >
      (or
      <a href="${exportPath({ marked: 'yes' })}&amp;as=records" download>as records for an authors group</a>,
      in the columns its import reads), with emails, ORCID iDs and affiliations; no scores or metrics, as the
      last upload did not rank them.
    </p>`;
  return html`<p>
    Export as CSV:
    <a href="${exportPath(f)}" download
      >${filtered ? `the ${countOf(matching, 'candidate', 'candidates')} these filters list` : `all ${countOf(all, 'candidate', 'candidates')}`}</a
    >${
      marked > 0
        ? html` ·
            <a href="${exportPath({ marked: 'yes', sort: f.sort, order: f.order })}" download
              >the ${countOf(marked, 'marked referee', 'marked referees')} only</a
            >
            (or
            <a href="${exportPath({ marked: 'yes', sort: f.sort, order: f.order })}&amp;as=records" download
              >as records for an authors group</a
            >, in the columns its import reads)`
        : null
    };
    with emails, ORCID iDs, affiliations, conflicts, scores and metrics.
  </p>`;
}

/**
 * How a row's controls name its candidate for a screen reader ("Mark as referee Wei Zhang"): the
 * name, and where another candidate of the page has it too (common names are), what tells them apart
 * as the row shows it: the affiliation, else the email, else the ORCID iD, and the author number the
 * row shows where those are alike too. Two rows' buttons said the same, and the one a listener pressed
 * was a guess.
 */
function candidateNames(candidates: readonly StoredCandidate[]): Map<number, { html: Html; text: string }> {
  const key = (c: StoredCandidate) => c.name.trim().toLowerCase();
  const count = (keys: string[]) =>
    keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
  const names = count(candidates.map(key));
  const detailOf = (c: StoredCandidate): string | null =>
    names.get(key(c))! < 2 ? null : (c.affiliation ?? c.email ?? (c.orcid ? `ORCID ${c.orcid}` : null));
  const details = count(candidates.map((c) => `${key(c)}\n${detailOf(c) ?? ''}`));
  return new Map(
    candidates.map((c) => {
      const detail = detailOf(c);
      const alike = names.get(key(c))! > 1 && details.get(`${key(c)}\n${detail ?? ''}`)! > 1;
      const number = alike ? `author ${c.author_id}` : null;
      const parts = [detail, number].filter((p): p is string => p !== null);
      return [
        c.author_id,
        parts.length === 0
          ? { html: isolate(c.name), text: isolateText(c.name) }
          : {
              html: html`${isolate(c.name)}
              (${detail === null ? null : isolate(detail)}${detail && number ? ', ' : ''}${number})`,
              text: `${isolateText(c.name)} (${[detail === null ? null : isolateText(detail), number].filter(Boolean).join(', ')})`,
            },
      ];
    }),
  );
}

/**
 * A row's conflicts: those the last upload found, with their evidence, and an editor's flag made since
 * (`pendingFlag`), which every role reads: the filters count it. A flagged row said "None found" above
 * the flag, and to a viewer, who has no button, "None found" alone, in a list filtered by that flag.
 */
function conflictsCell(base: string, c: StoredCandidate, names: RowFacts): Html {
  const pendingFlag = names.flagged.has(c.author_id) && !c.conflicts.some((k) => k.kind === 'external_coi');
  const namesake = names.namesakes.get(c.author_id);
  return html`${pendingFlag && c.conflicts.length === 0 ? null : conflictList(base, c.conflicts, names.authors)}
  ${
    namesake === undefined
      ? null
      : html`<div class="hint">
          Named as the manuscript's author ${isolate(namesake)}: the name alone does not show whether this is
          the same person (an ORCID iD or an affiliation given with the manuscript would).
        </div>`
  }
  ${
    pendingFlag
      ? html`<div class="hint">Flagged by an editor: the next upload reports this conflict.</div>`
      : null
  }`;
}

/**
 * An editor's own flag of a conflict of interest with this manuscript (an `external_coi` row by
 * author id, as `refmatch coi import` writes): the button to add or take off the flag; until the next
 * upload ranks again, the row says it is flagged (`conflictsCell`).
 */
function conflictFlag(
  request: FastifyRequest,
  manuscriptId: number,
  c: StoredCandidate,
  flagged: boolean,
  f: PageFilters,
  name: string,
): Html {
  const action = (to: string) =>
    dashboardPath('manuscripts', manuscriptId, 'candidates', c.author_id, to) + filtersQuery(f);
  return html`${actionButton(request, {
    action: action(flagged ? 'no-conflict' : 'conflict'),
    label: flagged ? 'Remove conflict flag' : 'Flag a conflict',
    accessibleName: flagged ? `Remove conflict flag of ${name}` : `Flag a conflict of interest with ${name}`,
    id: `conflict-${c.author_id}`,
    kind: 'secondary',
  })}`;
}

/**
 * Why a candidate is there (referee-finder/concepts.ts candidateWhy): the score's two parts, then
 * the terms and the works behind it, each as its share of the evidence.
 */
function whyDetails(base: string, name: Html, why: CandidateWhy, titles: WorkTitles): Html {
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  return html`<details class="why">
    <summary>Why this candidate<span class="visually-hidden"> (${name})</span></summary>
    <p class="hint">
      Match of the best works ${why.docScore.toFixed(3)} · of all works read as one profile
      ${why.profileScore.toFixed(3)}${
        why.boost
          ? html` · score multiplied by ${why.boost}, the folder's boost for its authors groups`
          : null
      }
    </p>
    ${
      why.terms.length
        ? html`<p>
            Matched on
            ${why.terms.map((t, i) => html`${i > 0 ? ', ' : ''}<em>${t.label}</em> ${percent(t.share)}`)}
          </p>`
        : null
    }
    ${
      why.works.length
        ? html`<ol>
            ${why.works.map((w) => {
              const work = titles.get(w.id);
              // A work removed from the corpus since the upload is named by its id.
              return html`<li>
                ${work ? workLink(base, { id: w.id, ...work }) : `Work ${w.id} (no longer in the corpus)`}:
                ${percent(w.share)} of the evidence${w.terms.length ? html`, on ${w.terms.join(', ')}` : null}
              </li>`;
            })}
          </ol>`
        : null
    }
  </details>`;
}

/** Titles and years of works, by id (referee-finder/candidate-data.ts workSummaries). */
type WorkTitles = ReadonlyMap<number, { title: string; year: number | null }>;

/**
 * The titles of the works the candidates' explanations name. Most of them are also among the
 * candidates' stored relevant articles, whose titles the row already shows; only the rest are read
 * (a work that left the corpus is then missing from the map).
 */
async function explainedWorkTitles(
  db: Queryable,
  candidates: readonly StoredCandidate[],
): Promise<WorkTitles> {
  const stored = new Map<number, { title: string; year: number | null }>();
  for (const c of candidates) {
    for (const a of c.relevant_articles) stored.set(a.id, { title: a.title, year: a.year || null });
  }
  const missing = new Set<number>();
  for (const c of candidates) {
    for (const w of c.why?.works ?? []) if (!stored.has(w.id)) missing.add(w.id);
  }
  const read = await workSummaries(db, [...missing]);
  for (const [id, work] of read) stored.set(id, work);
  return stored;
}

function workLink(base: string, w: { id: number; title: string; year: number | null }): Html {
  return html`<a href="${workUrl(base, w.id)}">${isolate(w.title)}</a> (${w.year ?? 'year unknown'})`;
}

/** What the candidate rows name: their groups, and the manuscript authors their conflicts name. */
interface RowNames {
  groups: ReadonlyMap<number, string>;
  authors: ReadonlyMap<number, string>;
}

/** What a row shows besides its stored candidate: names, and whether an editor flagged a conflict. */
interface RowFacts extends RowNames {
  /** Candidates flagged as in conflict with this manuscript by author id (the row's button). */
  flagged: ReadonlySet<number>;
  /** The manuscript author each candidate's name could be written for, by author id (`namesakes`). */
  namesakes: ReadonlyMap<number, string>;
}

/**
 * The candidates whose name could be a manuscript author's (`namesCompatible`), with that author's
 * name as given. A name alone settles no one (conflicts.md), so an author sent by name only, with
 * neither an ORCID iD nor an affiliation, stays among their own manuscript's candidates, and the row
 * said "None found": Nuno M. Guerreiro, fifth on his own manuscript, one click from being asked to
 * review it.
 */
/** The manuscript's authors and the file's authors the form left out (stored by the upload): both are its authors for conflicts. */
function authorsForConflicts(m: ManuscriptDetail): ReadonlyArray<{ name: string }> {
  return [...m.authors, ...(m.file_only_authors ?? [])];
}

function namesakes(
  authors: ReadonlyArray<{ name: string }>,
  candidates: readonly StoredCandidate[],
): Map<number, string> {
  const parsed = authors.map((a) => ({ name: a.name, parsed: parsePersonName(a.name) }));
  const found = new Map<number, string>();
  if (parsed.length === 0) return found;
  for (const c of candidates) {
    const candidate = parsePersonName(c.name);
    const author = parsed.find((a) => parsedNamesCompatible(a.parsed, candidate));
    if (author) found.set(c.author_id, author.name);
  }
  return found;
}

async function rowNames(
  db: Queryable,
  organizationId: number,
  candidates: readonly StoredCandidate[],
  /** The groups of the upload's authors groups settings, named with the candidates' groups. */
  settingsGroupIds: readonly number[] = [],
): Promise<RowNames> {
  const groupIds = [
    ...new Set([...settingsGroupIds, ...candidates.flatMap((c) => c.authors_groups.map((g) => g.group_id))]),
  ];
  const authorIds = [
    ...new Set(
      candidates.flatMap((c) =>
        c.conflicts.flatMap((k) => (k.kind === 'coauth_conflicts' ? [k.evidence.manuscript_author_id] : [])),
      ),
    ),
  ];
  const [groups, authors] = await Promise.all([
    groupIds.length ? listGroups(db, organizationId) : [],
    authorIds.length
      ? db.query<{ id: number; name: string }>(
          'SELECT id, display_name AS name FROM authors WHERE id = ANY($1::int[])',
          [authorIds],
        )
      : { rows: [] },
  ]);
  return {
    groups: new Map(groups.map((g) => [g.group_id, g.name])),
    authors: new Map(authors.rows.map((r) => [r.id, r.name])),
  };
}

/** Evidence that came from a manuscript author read from the file alone says so (conflict-policy.ts). */
function fromFileOnly(evidence: { manuscript_author_only_in_file?: true }): Html | null {
  return evidence.manuscript_author_only_in_file
    ? html` <span class="muted">(that author was read from the file, not in the form)</span>`
    : null;
}

/** Each conflict and the evidence the policy gave for it; `authors` names the manuscript's authors. */
export function conflictList(
  base: string,
  conflicts: readonly Conflict[],
  authors: ReadonlyMap<number, string> = new Map(),
): Html {
  if (!conflicts.length) return html`<span class="muted">None found</span>`;
  return html`<ul class="conflicts">
    ${conflicts.map((c) => {
      const label = html`<strong>${CONFLICT_LABELS[c.kind]}</strong>: `;
      switch (c.kind) {
        case 'coauth_conflicts':
          return html`<li>
            ${label}co-wrote ${workLink(base, c.evidence.work)} with
            <a href="${authorUrl(base, c.evidence.manuscript_author_id)}"
              >${isolate(authors.get(c.evidence.manuscript_author_id) ?? "the manuscript's author")}</a
            >, an author of the manuscript${fromFileOnly(c.evidence)}
          </li>`;
        case 'aff_conflicts':
          return html`<li>
            ${label}“${isolate(c.evidence.candidate_affiliation)}” and
            ${
              c.evidence.manuscript_source === 'manuscript'
                ? html`“${isolate(c.evidence.manuscript_affiliation)}”, given with the manuscript
                  ${c.evidence.manuscript_author ? html` for ${isolate(c.evidence.manuscript_author)}` : null}`
                : c.evidence.manuscript_source === 'corpus'
                  ? html`“${isolate(c.evidence.manuscript_affiliation)}”, from a manuscript author's recent
                    works in the corpus`
                  : c.evidence.manuscript_source === 'group'
                    ? html`“${isolate(c.evidence.manuscript_affiliation)}”, a manuscript author's affiliation
                      in your authors groups`
                    : html`the manuscript author's “${isolate(c.evidence.manuscript_affiliation)}”`
            }
            (${
              c.evidence.by === 'institution'
                ? 'same institution'
                : c.evidence.by === 'email_domain'
                  ? 'email addresses of one institution'
                  : 'same organization name'
            })${fromFileOnly(c.evidence)}
          </li>`;
        case 'retracted_articles':
          return html`<li>${label}${workLink(base, c.evidence.work)} is retracted</li>`;
        case 'referenced_articles':
          return html`<li>
            ${label}wrote ${workLink(base, c.evidence.work)}, cited as “${isolate(c.evidence.reference)}”
          </li>`;
        case 'external_coi':
          return html`<li>
            ${label}flagged ${c.evidence.origin_id === null ? 'for every manuscript' : 'for this manuscript'}
            by
            ${c.evidence.matched === 'author_id' ? 'author id' : c.evidence.matched === 'orcid' ? 'ORCID' : 'email'}
            <code>${isolate(c.evidence.value)}</code>
          </li>`;
      }
    })}
  </ul>`;
}

/**
 * The recommended journals. Each linked folder leads to its page; for a role that links journals (an
 * account manager), a journal linked to none leads to the manuscript's folder's journal search with
 * its title, where Link is one press: the folder was a plain name and a journal without one a dash,
 * and linking it meant Folders, the folder, past its settings, and the title typed again (round 31).
 */
function journalTable(
  journals: readonly RecommendedJournal[],
  venues: ReadonlyMap<number, VenueIds>,
  /** The folder an unlinked journal is offered to, for a role that may link; else null. */
  linkTo: number | null,
): Html {
  if (!journals.length) return html`<p class="muted">No journal in the corpus matches this manuscript.</p>`;
  return dataTable({
    // 1.000 at the top read as a certainty, or as a share: it is neither.
    caption:
      'Journals that fit the manuscript, best first (a score has no unit: higher is closer, and it compares the journals of this list only)',
    columns: ['Journal', 'Score', 'Linked folder', 'Relevant articles'],
    rows: journals.map(
      (j) =>
        html`<tr>
          <td>
            ${j.title}
            <div class="hint">${venueLine(j.publisher_name, venues.get(j.id), j.id)}</div>
          </td>
          <td>${j.score.toFixed(3)}</td>
          <td>
            ${
              j.folder_id !== null && j.folder_name !== null
                ? html`<a href="${dashboardPath('folders', j.folder_id)}#linked-journals"
                    >${isolate(j.folder_name)}</a
                  >`
                : linkTo !== null
                  ? html`<a
                      href="${dashboardPath('folders', linkTo)}?${new URLSearchParams({ journal: j.title }).toString()}#linked-journals"
                      >Link to the manuscript's folder<span class="visually-hidden"
                        >: ${isolate(j.title)}</span
                      ></a
                    >`
                  : html`<span class="muted">—</span>`
            }
          </td>
          <td>
            <ul>
              ${j.relevant_articles.slice(0, 3).map((a) => html`<li>${isolate(a.title)} (${a.year || 'year unknown'})</li>`)}
            </ul>
          </td>
        </tr>`,
    ),
  });
}
