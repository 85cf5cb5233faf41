// Authors groups and their records (editor): groups listed and created; a group's records searched
// and paged; a record added, edited (with its custom values) and deleted; and the corpus author it
// is linked to, or why it is not. Reads and writes go through the stores the API uses.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { RowId } from '../../http/schemas.ts';
import type { AppContext } from '../../app-context.ts';
import { authorUrl } from '../../corpus/authors/author-summary.ts';
import { errors } from '../../infra/errors.ts';
import {
  checkRecordLimits,
  createGroup,
  deleteGroup,
  deleteGroupAuthor,
  findGroupNamed,
  findGroupAuthor,
  groupDeletionPreview,
  listGroupAuthors,
  listGroupAuthorsNextTo,
  listGroupPage,
  RECORD_LIMITS,
  renameGroup,
  requireGroup,
  SEARCH_COUNT_LIMIT,
  writeGroupAuthor,
  type GroupAuthorListItem,
  type GroupAuthorRecord,
  type GroupDeletion,
  type StoredGroupAuthor,
} from '../../authors-groups/store.ts';
import { listOwnerCustomFields, loadFieldRules, type CustomField } from '../../custom-fields/store.ts';
import { checkCustomValues, type CustomValue } from '../../custom-fields/values.ts';
import { loadAuthorSummaries } from '../../corpus/authors/author-summary.ts';
import { findLink } from '../../corpus/authors/linking.ts';
import {
  checkAll,
  concerning,
  csrfField,
  dashboardRoute,
  fieldInvalid,
  fieldState,
  keptForm,
  mayDo,
  orgOf,
  postedForm,
  redirectTo,
  renderPage,
  askFirst,
  Confirmable,
  deletedAlready,
  unlessDeletedAlready,
  refuseChangedMeanwhile,
  seenField,
  versionOf,
  onlyRolesMay,
} from '../framework.ts';
import {
  pageCount,
  pagerNav,
  PagedSearchQuery,
  searchedPage,
  searchPageLink,
  type PagedSearch,
  type SearchedPage,
} from '../pager.ts';
import { lines, text, type FormBody } from '../form-values.ts';
import {
  countOf,
  dashboardPath,
  formatCount,
  html,
  isolate,
  isolateText,
  quotedBack,
  type Html,
  wrappableAddresses,
} from '../html.ts';
import { isEmailAddress } from '../../infra/email-address.ts';
import { heldAddressAdvice, wholeAddressAdvice } from '../email-advice.ts';
import { dataTable } from '../table.ts';
import {
  customInput,
  customInputName,
  postedCustomValue,
  postedCustomValues,
  shownCustomValue,
  valueRefusal,
} from '../custom-values-form.ts';

/** A group's records shown a page. */
const PAGE_SIZE = 50;
/** Groups shown a page: an organization may hold thousands. */
const GROUPS_PAGE_SIZE = 100;
const Id = RowId();
const GroupParams = Type.Object({ groupId: Id });
const RecordParams = Type.Object({ groupId: Id, clientId: Type.String({ minLength: 1, maxLength: 256 }) });
/**
 * A group's records page: `?q=…&page=…` as every listing (PagedSearchQuery), and the record the page
 * follows (`after`) or precedes (`before`), by its client id: the Next and Previous links name it, so
 * a page deep in a large group is read from that record's place in the name index, not by skipping
 * every record before it (PAGE_BY_NUMBER_DEPTH). `from_end`: a page's place from the last (1, the last
 * page, read from the end of the name index), for a search whose matches are not all counted
 * (SEARCH_COUNT_LIMIT) and so have no last page by number.
 */
const RecordsQuery = Type.Object({
  ...PagedSearchQuery.properties,
  after: Type.Optional(Type.String({ minLength: 1, maxLength: RECORD_LIMITS.clientId })),
  before: Type.Optional(Type.String({ minLength: 1, maxLength: RECORD_LIMITS.clientId })),
  from_end: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
});
type RecordsAsked = PagedSearch & { after?: string; before?: string; from_end?: number };

/**
 * The page of a group's records the query asks for. Next and Previous link the record they follow or
 * precede (the first page, by its address); the page's number travels with them to be shown, and is
 * read only when no record is named (or the one named is gone): at most PAGE_BY_NUMBER_DEPTH records
 * from the nearer end, deeper pages `tooDeep`.
 */
async function recordsPage(
  ctx: AppContext,
  key: { organizationId: number; groupId: number },
  base: string,
  query: RecordsAsked,
): Promise<
  SearchedPage<GroupAuthorListItem> & {
    tooDeep: boolean;
    fromLast: (k: number) => string;
    atFromLast: number | null;
    pagesKnown: boolean;
  }
> {
  const q = query.q ?? '';
  const clientId = query.after ?? query.before;
  const asked = { search: q, limit: PAGE_SIZE };
  let backward = query.after === undefined;
  let named =
    clientId === undefined
      ? null
      : await listGroupAuthorsNextTo(ctx.db, key, { ...asked, clientId, backward });
  // A page asked from the end with no record named (the last page), or the one named gone: the last
  // page, read from the end of the name index as the first is from its start.
  const fromTheEnd = query.from_end !== undefined && !(named && named.rows.length > 0);
  let byNumber = query.page;
  if (fromTheEnd) {
    backward = true;
    const last = await listGroupAuthorsNextTo(ctx.db, key, { ...asked, backward });
    named = last;
    // All counted, a page asked further from the end is that page by its number from the first (as
    // a numbered page whose record is gone): it showed the last page as "4 of 4" for page 2.
    if (last?.counted && query.from_end! > 1) {
      byNumber = Math.max(1, pageCount(last.total, PAGE_SIZE) + 1 - query.from_end!);
      named = null;
    }
  }
  let tooDeep = false;
  const listing: SearchedPage<GroupAuthorListItem> =
    named && named.rows.length > 0
      ? { ...named, q, page: 0, pages: pageCount(named.total, PAGE_SIZE), link: () => '', pastLast: null }
      : await searchedPage({ q, page: byNumber }, base, PAGE_SIZE, async (asked) => {
          const read = await listGroupAuthors(ctx.db, key, asked);
          tooDeep = read.tooDeep;
          return read;
        });
  let { page } = listing;
  let atFromLast: number | null = null;
  /** A search not all counted whose pages are known all the same, both its ends in sight. */
  let pagesKnown = false;
  if (named && named.rows.length > 0) {
    // Past the record named there are more rows one way (`more`) and the record itself the other (the
    // end itself, read from there); the number asked is shown, kept within what those say (a number
    // edited, records added since).
    const [previous, next] = backward ? [named.more, !fromTheEnd] : [true, named.more];
    if (named.counted) {
      // All counted, a page from the end has its number from the first.
      const number = query.from_end !== undefined ? listing.pages + 1 - query.from_end : (query.page ?? 1);
      page = !previous ? 1 : !next ? listing.pages : Math.min(Math.max(number, 2), listing.pages - 1);
    } else if (previous && (query.from_end !== undefined || fromTheEnd)) {
      // A search not all counted, walked from its end: the page's place from there, its number unknown.
      atFromLast = next ? Math.max(query.from_end ?? 1, 2) : 1;
    } else {
      // A search not all counted (SEARCH_COUNT_LIMIT): its pages known end here, or at the next one.
      page = !previous ? 1 : Math.max(query.page ?? 1, 2);
      listing.pages = next ? page + 1 : page;
      // Where its two ends meet, the pages there are are known: the last page walked to by Next knows
      // its number, the first walked to by Previous from the end its place from there ("Page 60",
      // "Page 1" said no more). Known as well as the numbers carried by the links are.
      if (!next && previous) pagesKnown = true;
      else if (!previous && next && query.from_end !== undefined && query.from_end > 1) {
        listing.pages = query.from_end;
        pagesKnown = true;
      }
    }
  }
  const { rows } = listing;
  /** The address `plain`, the record the page follows (`after`) or precedes (`before`) named. */
  const naming = (plain: string, edge: { after?: GroupAuthorListItem; before?: GroupAuthorListItem }) => {
    const [name, row] = Object.entries(edge)[0] ?? [];
    if (!name || !row) return plain;
    return `${plain}${plain.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(row.client_id)}`;
  };
  const link = (n: number) =>
    // The first page by its address; Next and Previous by the record they follow or precede.
    n === 1
      ? searchPageLink(base, q, n)
      : naming(
          searchPageLink(base, q, n),
          n === page + 1 ? { after: rows.at(-1) } : n === page - 1 ? { before: rows[0] } : {},
        );
  const fromLast = (k: number) => {
    const plain = `${searchPageLink(base, q, 1)}${q ? '&' : '?'}from_end=${k}`;
    // The last page from the end itself; the others by the record they follow or precede.
    if (k === 1 || atFromLast === null) return plain;
    return naming(
      plain,
      k === atFromLast + 1 ? { before: rows[0] } : k === atFromLast - 1 ? { after: rows.at(-1) } : {},
    );
  };
  return { ...listing, page, link, tooDeep, fromLast, atFromLast, pagesKnown };
}
const GroupBody = Type.Object({
  _csrf: Type.String(),
  name: Type.String({ maxLength: 1000 }),
  // The rename form's: what it was filled from (seenField), a rename over one made since is refused.
  seen: Type.Optional(Type.String({ maxLength: 100 })),
});
// Custom values arrive as cf_<api_id> fields, so the body names only what every record has.
const RecordBody = Type.Object(
  {
    _csrf: Type.String(),
    client_id: Type.Optional(Type.String({ maxLength: 1000 })),
    name: Type.String({ maxLength: 10_000 }),
    emails: Type.Optional(Type.String({ maxLength: 2_000_000 })),
    orcids: Type.Optional(Type.String({ maxLength: 2_000_000 })),
    articles: Type.Optional(Type.String({ maxLength: 2_000_000 })),
    affiliations: Type.Optional(Type.String({ maxLength: 2_000_000 })),
  },
  { additionalProperties: true },
);

const LIST_FIELDS = [
  { key: 'emails', label: 'Emails' },
  { key: 'orcids', label: 'ORCID iDs' },
  { key: 'articles', label: 'Articles (DOIs, titles, arXiv or PubMed ids)' },
  { key: 'affiliations', label: 'Affiliations' },
] as const;

const WHY_NOT_LINKED: Record<'ambiguous' | 'no_evidence', string> = {
  ambiguous:
    'Not linked: more than one author of the corpus fits what this record says; a wrong link would be worse than none.',
  no_evidence:
    'Not linked: no author of the corpus shares an ORCID iD or an email with this record, wrote one of its articles under a compatible name, or has a compatible name and one of its affiliations.',
};

const HOW_LINKED: Record<'orcid' | 'email' | 'articles' | 'affiliation', string> = {
  orcid: 'by ORCID iD',
  email: 'by email',
  articles: 'by the articles listed',
  affiliation: 'by name and affiliation',
};

function recordPath(groupId: number, clientId: string, ...rest: string[]): string {
  return dashboardPath('groups', groupId, 'records', clientId, ...rest);
}

/** The form's custom values, typed, then checked by the same rules as the API's (2.5). */
async function customValuesOf(
  ctx: AppContext,
  organizationId: number,
  body: FormBody,
): Promise<Record<string, CustomValue>> {
  const [rules, listed] = await Promise.all([
    loadFieldRules(ctx.db, organizationId, 'author_from_group'),
    listOwnerCustomFields(ctx.db, organizationId, 'author_from_group'),
  ]);
  // Messages name the field as the form labels it.
  const names = new Map(listed.map((f) => [f.api_id, f.name]));
  // A field left empty is null: no value, as the record is written whole.
  const fields = [...rules].map(([api_id, rule]) => ({
    api_id,
    data_kind: rule.dataKind,
    name: names.get(api_id) ?? api_id,
  }));
  const checked = checkCustomValues(postedCustomValues(body, fields), rules, 'custom');
  if (checked.problems.length > 0) {
    const byId = new Map(fields.map((f) => [f.api_id, f]));
    const named = checked.problems.map((p) => {
      const id = p.path.split('.')[1]!;
      return valueRefusal(
        byId.get(id) ?? { name: id, data_kind: 'str' },
        p.message,
        text(body, customInputName({ api_id: id })).trim(),
      );
    });
    // Each message also beside its input (cf_<api_id>).
    throw errors.validation(
      named.join('; '),
      checked.problems.map((p, i) => ({
        path: `body.${customInputName({ api_id: p.path.split('.')[1]! })}`,
        message: named[i]!,
      })),
    );
  }
  return checked.set;
}

/** How many refused emails a message names, the rest counted. */
const EMAILS_NAMED = 3;
/** How a record's form takes several addresses. */
const ONE_A_LINE = 'one a line';

/**
 * Refuses, beside the field, the emails typed in a record's form that are no address ("n/a", a name,
 * two on one line: `isEmailAddress`), each named by its line: such an item links the record to no
 * one and reaches no one. The API takes any string in a record's emails (docs/interface.md, 4.2), so
 * a record may hold some: an item stored already is not checked again, and an edit of another field
 * of that record is not barred by what the editor did not type.
 */
function checkTypedEmails(body: FormBody, stored: readonly string[] | null): void {
  const kept = new Set(stored ?? []);
  const wrong = text(body, 'emails')
    .split(/\r?\n/)
    .map((line, i) => ({ item: line.trim(), line: i + 1 }))
    .filter(({ item }) => item !== '' && !kept.has(item) && !isEmailAddress(item));
  if (wrong.length === 0) return;
  const named = wrong.slice(0, EMAILS_NAMED).map(({ item, line }) => {
    // An item that holds an address is told which to write; the others share the advice at the end.
    const advice = heldAddressAdvice(item, ONE_A_LINE);
    return `${quotedBack(item)} (line ${line}${advice === null ? '' : `: ${advice}`})`;
  });
  const more = wrong.length - named.length;
  const list =
    more > 0
      ? `${named.join(', ')} and ${formatCount(more)} more`
      : named.length > 1
        ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`
        : named[0]!;
  throw fieldInvalid(
    'emails',
    `${list} ${wrong.length > 1 ? 'are not email addresses' : 'is not an email address'}: ${wholeAddressAdvice(ONE_A_LINE)}`,
  );
}

/** The input a refusal of checkRecordLimits concerns, by what its message names. */
function recordField(message: string): string | null {
  if (/client id/i.test(message)) return 'client_id';
  if (/^The name/.test(message)) return 'name';
  return LIST_FIELDS.find((f) => message.includes(` ${f.key} `))?.key ?? null;
}

function recordOf(body: FormBody, customValues: Record<string, CustomValue>): GroupAuthorRecord {
  const listOrNull = (key: string) => {
    const items = lines(body, key);
    return items.length > 0 ? items : null;
  };
  return {
    name: text(body, 'name').trim(),
    emails: listOrNull('emails'),
    orcids: listOrNull('orcids'),
    articles: listOrNull('articles'),
    affiliations: listOrNull('affiliations'),
    custom_values: customValues,
  };
}

/** What a record's edit form is filled from and sends (its corpus link aside, which the linker changes). */
function editedRecord(record: GroupAuthorRecord): unknown {
  const { name, emails, orcids, articles, affiliations, custom_values } = record;
  return [name, emails, orcids, articles, affiliations, custom_values];
}

async function recordForm(
  ctx: AppContext,
  request: FastifyRequest,
  action: string,
  stored: StoredGroupAuthor | null,
): Promise<Html> {
  const fields = await listOwnerCustomFields(ctx.db, orgOf(request), 'author_from_group');
  // After a refusal the form shows what was typed, not what is stored.
  const posted = postedForm(request);
  const listText = (key: (typeof LIST_FIELDS)[number]['key']) =>
    posted ? text(posted, key) : (stored?.[key] ?? []).join('\n');
  const customValue = (f: CustomField): CustomValue | undefined =>
    posted ? postedCustomValue(posted, f) : stored?.custom_values[f.api_id];
  const clientId = fieldState(request, 'client_id', { hints: ['client-hint'] });
  const name = fieldState(request, 'name');
  return html`<form method="post" action="${action}" class="stack">
    ${csrfField(request)}
    ${
      // The record as stored now, also after a refusal: the form sent again replaces it knowingly.
      stored ? seenField(editedRecord(stored)) : null
    }
    ${
      stored
        ? null
        : html`<label for="client_id">Client id</label>
            ${clientId.message}
            <input
              id="client_id"
              name="client_id"
              type="text"
              required
              maxlength="256"
              ${clientId.attrs}
              value="${posted ? text(posted, 'client_id') : ''}"
            />
            <p id="client-hint" class="hint">
              The id your editorial system knows this person by, unique in the group.
            </p>`
    }
    <label for="name">Name</label>
    ${name.message}
    <input
      id="name"
      name="name"
      type="text"
      required
      maxlength="1000"
      ${name.attrs}
      value="${posted ? text(posted, 'name') : (stored?.name ?? '')}"
    />
    ${LIST_FIELDS.map((f) => {
      const state = fieldState(request, f.key);
      return html`<label for="${f.key}">${f.label}, one a line</label>
        ${state.message}
        <textarea id="${f.key}" name="${f.key}" ${state.attrs}>${listText(f.key)}</textarea>`;
    })}
    ${
      fields.length > 0
        ? html`<h2>Custom fields</h2>
            ${fields.map((f) => customInput(request, f, customValue(f)))}`
        : null
    }
    <button type="submit">${stored ? 'Save record' : 'Add record'}</button>
  </form>`;
}

export function registerAuthorsGroupPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/groups/',
    action: 'read',
    schema: { querystring: PagedSearchQuery },
    handler: async (request, reply) => {
      const base = dashboardPath('groups');
      const listing = await searchedPage(request.query as PagedSearch, base, GROUPS_PAGE_SIZE, (asked) =>
        listGroupPage(ctx.db, orgOf(request), asked),
      );
      // A page past the last (an old link, groups deleted since) is the last page.
      if (listing.pastLast) return redirectTo(ctx, request, reply, listing.pastLast);
      const { q, page, pages, total, rows: groups, link: pageLink } = listing;
      return renderPage(ctx, request, reply, {
        title: 'Authors groups',
        body: html`<p>
            Your own pools of reviewers. A folder can highlight, limit to or boost a group's authors.
          </p>
          ${
            // Before the list, whose up to 100 rows put it some 110 Tabs away at the page's foot. It
            // posts to this page's address, so that a refusal comes back to this search and page.
            mayDo(request, 'authors_groups_write')
              ? html`<h2>Add a group</h2>
                  <form method="post" action="${pageLink(page)}" class="row">
                    ${csrfField(request)} ${groupNameField(request, text(postedForm(request) ?? {}, 'name'))}
                    <button type="submit">Add group</button>
                  </form>
                  <h2>The organization's groups</h2>`
              : onlyRolesMay(request, 'authors_groups_write', 'add groups, or add and import their records')
          }
          <form method="get" action="${base}" class="row" role="search">
            <div>
              <label for="q">Search by name</label>
              <input id="q" name="q" type="search" value="${q}" />
            </div>
            <button type="submit">Search</button>
          </form>
          ${dataTable({
            caption: html`${countOf(total, 'group', 'groups')}${q ? html` matching “${isolate(q)}”` : null}`,
            columns: ['Group', 'Id', 'Authors'],
            empty: q ? 'No group matches.' : 'No groups yet.',
            rows: groups.map(
              (g) =>
                html`<tr>
                  <td class="given"><a href="${dashboardPath('groups', g.group_id)}">${g.name}</a></td>
                  <td>${g.group_id}</td>
                  <td>${g.authors}</td>
                </tr>`,
            ),
          })}
          ${pagerNav({ page, pages, link: pageLink, label: 'Pages of groups' })}`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/groups/',
    action: 'authors_groups_write',
    schema: { body: GroupBody },
    // The list's search and page the form was sent from (its action's query), to come back to.
    back: (request) => {
      const { q, page } = request.query as { q?: unknown; page?: unknown };
      const n = typeof page === 'string' && /^\d{1,6}$/.test(page) ? Number(page) : 1;
      return searchPageLink(dashboardPath('groups'), typeof q === 'string' ? q : '', Math.max(n, 1));
    },
    // A refused name (taken, letter case aside) comes back to be corrected, not retyped.
    keepsForm: true,
    handler: async (request, reply) => {
      const organizationId = orgOf(request);
      const name = (request.body as { name: string }).name;
      // The form sent twice (a double click; Back and send again), or a group of just this name there
      // already: its page, said so, where the second post's "a group named ... already exists" read as
      // if nothing had been added. Another group's name in other letter case is refused as taken.
      const existing = await findGroupNamed(ctx.db, organizationId, name.trim());
      if (existing) {
        return redirectTo(ctx, request, reply, dashboardPath('groups', existing.group_id), {
          kind: 'ok',
          // True of both ways here (it said "the form was sent again" to an editor who had typed the name
          // of a group made before).
          message: `The organization has the group ${isolateText(existing.name)} (added before, or this form sent twice): nothing new was added, and the group is there once.`,
        });
      }
      const group = await concerning('name', () => createGroup(ctx.db, organizationId, name));
      return redirectTo(ctx, request, reply, dashboardPath('groups', group.group_id), {
        kind: 'ok',
        message: `The group ${isolateText(group.name)} was added.`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/groups/:groupId/',
    action: 'read',
    schema: { params: GroupParams, querystring: RecordsQuery },
    handler: async (request, reply) => {
      const { groupId } = request.params as { groupId: number };
      const organizationId = orgOf(request);
      const group = await requireGroup(ctx.db, organizationId, groupId);
      const base = dashboardPath('groups', groupId);
      const records = await recordsPage(
        ctx,
        { organizationId, groupId },
        base,
        request.query as RecordsAsked,
      );
      // A page past the last (an old link, records deleted since) is the last page.
      if (records.pastLast) return redirectTo(ctx, request, reply, records.pastLast);
      const {
        q,
        page,
        pages,
        total,
        counted,
        rows: authors,
        link: pageLink,
        tooDeep,
        fromLast,
        atFromLast,
        pagesKnown,
      } = records;
      const matching = q ? html` matching “${isolate(q)}”` : null;
      const howMany = counted
        ? countOf(total, 'record', 'records')
        : `More than ${countOf(SEARCH_COUNT_LIMIT, 'record', 'records')}`;
      return renderPage(ctx, request, reply, {
        title: `Authors group ${isolateText(group.name)}`,
        // Two sections, each under its heading: read by headings (a screen reader's way through a
        // page), the page was its title alone, the records table found only by reading on.
        body: html`<p>Group id ${group.group_id} (the <code>group_id</code> of the API).</p>
          ${
            mayDo(request, 'authors_groups_write')
              ? html`<h2>Rename or delete the group</h2>
                  <form method="post" action="${base}name/" class="row">
                    ${csrfField(request)} ${seenField(renamedGroup(group.name))}
                    ${groupNameField(request, postedForm(request) ? text(postedForm(request)!, 'name') : group.name)}
                    <button type="submit" class="secondary">Rename</button>
                  </form>
                  <form method="post" action="${base}delete/">
                    ${csrfField(request)}
                    <button type="submit" class="danger">Delete group</button>
                  </form>`
              : null
          }
          <h2>Records</h2>
          <p>
            ${
              mayDo(request, 'authors_groups_write')
                ? html`<a href="${base}new-record/">Add a record</a> ·
                    <a href="${base}import/">Import records</a> (CSV) ·`
                : null
            }
            <a href="${base}export/" download>Export every record</a>
            (CSV, in the columns the import reads${q ? ', whatever the search' : ''})
          </p>
          <form method="get" action="${base}" class="row" role="search">
            <div>
              <label for="q">Search by name, client id or email</label>
              <input id="q" name="q" type="search" value="${q}" />
            </div>
            <button type="submit">Search</button>
          </form>
          ${dataTable({
            caption: html`${howMany}${matching}`,
            columns: ['Name', 'Client id', 'Emails', 'Corpus author'],
            empty: tooDeep
              ? counted
                ? html`Page ${formatCount(page)} of ${formatCount(pages)} lies too deep to be read by its
                    number: walk to it with Next from the <a href="${pageLink(1)}">first page</a> or Previous
                    from the <a href="${pageLink(pages)}">last</a>, or search.`
                : html`Page ${formatCount(page)} lies too deep to be read by its number: walk to it with Next
                    from the <a href="${pageLink(1)}">first page</a> or Previous from the
                    <a href="${fromLast(1)}">last</a>, or add words to the search.`
              : q
                ? 'No record matches.'
                : 'No records yet.',
            rows: authors.map(
              (a) =>
                html`<tr>
                  <td class="given"><a href="${recordPath(groupId, a.client_id)}">${a.name}</a></td>
                  <td class="given">${a.client_id}</td>
                  <td class="address">${wrappableAddresses(a.emails ?? [])}</td>
                  <td>
                    ${
                      a.linked_author_id === null
                        ? html`<span class="muted">not linked</span>`
                        : html`<a href="${authorUrl(ctx.config.publicBaseUrl, a.linked_author_id)}"
                            >${a.linked_author_name ?? `author ${a.linked_author_id}`}</a
                          >`
                    }
                  </td>
                </tr>`,
            ),
          })}
          ${
            tooDeep
              ? null
              : pagerNav({
                  page,
                  pages,
                  counted,
                  pagesKnown,
                  link: pageLink,
                  fromLast,
                  atFromLast,
                  label: 'Pages of records',
                })
          }`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/groups/:groupId/name/',
    action: 'authors_groups_write',
    schema: { params: GroupParams, body: GroupBody },
    back: (request) => dashboardPath('groups', (request.params as { groupId: number }).groupId),
    // A refused name comes back as typed, with its message beside it.
    keepsForm: true,
    handler: async (request, reply) => {
      const { groupId } = request.params as { groupId: number };
      const name = (request.body as { name: string }).name;
      refuseChangedMeanwhile(
        request.body as FormBody,
        "The group's name was",
        renamedGroup((await requireGroup(ctx.db, orgOf(request), groupId)).name),
        renamedGroup(name),
      );
      const group = await concerning('name', () => renameGroup(ctx.db, orgOf(request), groupId, name));
      return redirectTo(ctx, request, reply, dashboardPath('groups', groupId), {
        kind: 'ok',
        message: `The group is now named ${isolateText(group.name)}.`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/groups/:groupId/delete/',
    action: 'authors_groups_write',
    asksFirst: true,
    schema: { params: GroupParams, body: Confirmable },
    handler: async (request, reply) => {
      const { groupId } = request.params as { groupId: number };
      const organizationId = orgOf(request);
      const gone = { what: `The group ${groupId}`, to: '/dashboard/groups/', toLabel: 'the groups' };
      return unlessDeletedAlready(ctx, request, reply, gone, async () => {
        const preview = await groupDeletionPreview(ctx.db, organizationId, groupId);
        const asking = await askFirst(ctx, request, reply, {
          title: `Delete the group ${isolateText(preview.name)}?`,
          consequence: groupDeletionConsequence(preview),
          label: 'Delete group and its records',
          cancel: dashboardPath('groups', groupId),
        });
        if (asking !== null) return asking;
        const deleted = await deleteGroup(ctx.db, organizationId, groupId);
        return redirectTo(ctx, request, reply, '/dashboard/groups/', {
          kind: 'ok',
          message:
            `The group ${isolateText(deleted.name)} was deleted, with ${countOf(deleted.records, 'record', 'records')}.` +
            (deleted.folders.length > 0
              ? ` The referee finder settings of ${deleted.folders.map(isolateText).join(', ')} no longer name it.`
              : ''),
        });
      });
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    // Beside the records, not among them: at records/new/ it hid the record whose client id is "new".
    url: '/groups/:groupId/new-record/',
    action: 'authors_groups_write',
    schema: { params: GroupParams },
    handler: async (request, reply) => {
      const { groupId } = request.params as { groupId: number };
      const group = await requireGroup(ctx.db, orgOf(request), groupId);
      return renderPage(ctx, request, reply, {
        title: `Add a record to ${isolateText(group.name)}`,
        body: await recordForm(ctx, request, dashboardPath('groups', groupId, 'records'), null),
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/groups/:groupId/records/',
    action: 'authors_groups_write',
    schema: { params: GroupParams, body: RecordBody },
    back: (request) => dashboardPath('groups', (request.params as { groupId: number }).groupId, 'new-record'),
    keepsForm: true,
    handler: async (request, reply) => {
      const { groupId } = request.params as { groupId: number };
      const organizationId = orgOf(request);
      await requireGroup(ctx.db, organizationId, groupId);
      const body = request.body as FormBody;
      const clientId = text(body, 'client_id').trim();
      const key = { organizationId, groupId, clientId };
      let customValues: Record<string, CustomValue> = {};
      // The form sent twice (a double click; Back and send again): the second finds the record the
      // first added, as sent. Said to be there, where "the client id is taken" led editors to add the
      // same person again under another id.
      let sentAgain = false;
      // Every wrong field said at once: the client id (its form, then taken), the record's own
      // fields, the custom values.
      await checkAll([
        () =>
          concerning('client_id', () => checkRecordLimits(clientId, { ...recordOf(body, {}), name: '-' })),
        async () => {
          const taken = await findGroupAuthor(ctx.db, key);
          sentAgain =
            taken !== null &&
            versionOf(editedRecord(taken)) ===
              versionOf(
                editedRecord(
                  recordOf(
                    body,
                    // Values the custom fields refuse are said by their own check below.
                    await customValuesOf(ctx, organizationId, body).catch(() => ({})),
                  ),
                ),
              );
          if (taken && !sentAgain) {
            // Says whose it is and the two ways on: a new id for a new person, or the record itself
            // (from the group's list) when the editor meant that person.
            throw fieldInvalid(
              'client_id',
              `The group already has a record with the client id ${isolateText(clientId)} (${isolateText(taken.name)}): choose another client id, or open ${isolateText(taken.name)} in the group's list to change that record.`,
              409,
            );
          }
        },
        () => concerning(recordField, () => checkRecordLimits('-', recordOf(body, {}))),
        () => checkTypedEmails(body, null),
        async () => {
          customValues = await customValuesOf(ctx, organizationId, body);
        },
      ]);
      const record = recordOf(body, customValues);
      if (!sentAgain) await writeGroupAuthor(ctx.db, key, record);
      return redirectTo(ctx, request, reply, recordPath(groupId, clientId), {
        kind: 'ok',
        message: sentAgain
          ? `The group has ${isolateText(record.name)} as sent (client id ${isolateText(clientId)}; added before, or this form sent twice): nothing new was added, and the record is there once.`
          : `${isolateText(record.name)} was added.`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/groups/:groupId/records/:clientId/',
    action: 'read',
    schema: { params: RecordParams },
    handler: async (request, reply) => {
      const { groupId, clientId } = request.params as { groupId: number; clientId: string };
      const organizationId = orgOf(request);
      const group = await requireGroup(ctx.db, organizationId, groupId);
      const stored = await findGroupAuthor(ctx.db, { organizationId, groupId, clientId });
      if (!stored) throw errors.notFound(`Record ${isolateText(clientId)} of group ${groupId}`);
      const editable = mayDo(request, 'authors_groups_write');
      return renderPage(ctx, request, reply, {
        title: stored.name,
        body: html`<p>
            In <a href="${dashboardPath('groups', groupId)}">${isolate(group.name)}</a>, client id
            <code>${isolate(clientId)}</code>.
          </p>
          <h2>Corpus author</h2>
          ${await linkedAuthorView(ctx, stored)}
          ${
            editable
              ? html`<h2>Edit</h2>
                  ${await recordForm(ctx, request, recordPath(groupId, clientId), stored)}
                  <form method="post" action="${recordPath(groupId, clientId, 'delete')}">
                    ${csrfField(request)}
                    <button type="submit" class="danger">Delete record</button>
                  </form>`
              : await readOnlyRecord(ctx, organizationId, stored)
          }`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/groups/:groupId/records/:clientId/',
    action: 'authors_groups_write',
    schema: { params: RecordParams, body: RecordBody },
    back: (request) => {
      const { groupId, clientId } = request.params as { groupId: number; clientId: string };
      return recordPath(groupId, clientId);
    },
    keepsForm: true,
    handler: async (request, reply) => {
      const { groupId, clientId } = request.params as { groupId: number; clientId: string };
      const organizationId = orgOf(request);
      const key = { organizationId, groupId, clientId };
      const body = request.body as FormBody;
      const stored = await findGroupAuthor(ctx.db, key);
      if (!stored) {
        // Deleted meanwhile (in another tab, by another editor): nothing is saved, and what was typed
        // is not lost to a 404 page either. It is offered as a new record of the group (if the group
        // is still there), to add again or leave; never written back by itself.
        await requireGroup(ctx.db, organizationId, groupId);
        const form = keptForm({ ...body, client_id: clientId }, true);
        return redirectTo(ctx, request, reply, dashboardPath('groups', groupId, 'new-record'), {
          kind: 'error',
          message: `The record ${isolateText(clientId)} was deleted meanwhile (in another tab, or by another editor): nothing was saved. What you typed is below as a new record: add it again, or leave this page.`,
          ...(form ? { form } : {}),
        });
      }
      let customValues: Record<string, CustomValue> = {};
      await checkAll([
        () => concerning(recordField, () => checkRecordLimits(clientId, recordOf(body, {}))),
        () => checkTypedEmails(body, stored.emails),
        async () => {
          customValues = await customValuesOf(ctx, organizationId, body);
        },
      ]);
      const record = recordOf(body, customValues);
      refuseChangedMeanwhile(body, 'This record was', editedRecord(stored), editedRecord(record));
      await writeGroupAuthor(ctx.db, key, record);
      return redirectTo(ctx, request, reply, recordPath(groupId, clientId), {
        kind: 'ok',
        message: 'Saved.',
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/groups/:groupId/records/:clientId/delete/',
    action: 'authors_groups_write',
    asksFirst: true,
    schema: { params: RecordParams, body: Confirmable },
    handler: async (request, reply) => {
      const { groupId, clientId } = request.params as { groupId: number; clientId: string };
      const stored = await findGroupAuthor(ctx.db, { organizationId: orgOf(request), groupId, clientId });
      const gone = {
        what: `The record ${isolateText(clientId)}`,
        to: dashboardPath('groups', groupId),
        toLabel: 'the group',
      };
      if (!stored) return deletedAlready(ctx, request, reply, gone);
      const asking = await askFirst(ctx, request, reply, {
        title: `Delete the record of ${isolateText(stored.name)}?`,
        consequence: `The record ${isolateText(clientId)}, with its emails, articles, affiliations and custom field values, is deleted for good; its corpus author stays in the corpus.`,
        label: 'Delete record',
        cancel: recordPath(groupId, clientId),
      });
      if (asking !== null) return asking;
      const deleted = await deleteGroupAuthor(ctx.db, { organizationId: orgOf(request), groupId, clientId });
      if (!deleted) return deletedAlready(ctx, request, reply, gone);
      return redirectTo(ctx, request, reply, dashboardPath('groups', groupId), {
        kind: 'ok',
        message: 'The record was deleted.',
      });
    },
  });
}

/** What the rename form is filled from and replaces: the group's name, as the store keeps it (trimmed). */
function renamedGroup(name: string): unknown {
  return { name: name.trim() };
}

/** The name field of the add and rename forms: 1 to 200 characters, as the store checks. */
function groupNameField(request: FastifyRequest, value: string): Html {
  const state = fieldState(request, 'name', { id: 'group-name' });
  return html`<div>
    <label for="group-name">Group name</label>
    ${state.message}
    <input id="group-name" name="name" type="text" required maxlength="200" value="${value}" ${state.attrs} />
  </div>`;
}

/** What deleting the group loses, and what becomes of the folders whose settings name it. */
function groupDeletionConsequence(preview: GroupDeletion): Html {
  const folders =
    preview.folders.length === 0
      ? html`No folder's referee finder settings name it.`
      : html`It is taken out of the referee finder settings of
        ${preview.folders.length === 1 ? 'the folder' : 'the folders'}
        ${preview.folders.map((f, i) => html`${i > 0 ? ', ' : ''}${isolate(f)}`)}; a folder left naming no
        group has no group effect, and its uploads are ranked over the whole corpus (one limited to this group
        alone is no longer limited).`;
  return html`Its ${countOf(preview.records, 'record', 'records')}, with their emails, articles, affiliations
  and custom field values, are deleted for good, and the API answers its group id ${preview.group_id} as one
  that never existed; the linked corpus authors stay in the corpus. ${folders} The candidates of past uploads
  stay as they were answered.`;
}

/** The linked corpus author with how the evidence links them, or why no author is linked. */
async function linkedAuthorView(ctx: AppContext, stored: StoredGroupAuthor): Promise<Html> {
  const link = await findLink(ctx.db, stored);
  if (stored.linked_author_id === null) {
    if (link.via === 'ambiguous' && link.among && link.among.length > 0)
      return ambiguousView(ctx, link.among);
    return html`<p>
      ${link.via === 'ambiguous' || link.via === 'no_evidence' ? WHY_NOT_LINKED[link.via] : 'Not linked yet: the corpus is being linked; look again shortly.'}
    </p>`;
  }
  const author = (await loadAuthorSummaries(ctx.db, ctx.config.publicBaseUrl, [stored.linked_author_id])).get(
    stored.linked_author_id,
  );
  if (!author) return html`<p>Linked to author #${stored.linked_author_id}, no longer in the corpus.</p>`;
  const how =
    link.authorId === author.id && link.via in HOW_LINKED
      ? HOW_LINKED[link.via as keyof typeof HOW_LINKED]
      : null;
  return html`<p>
      Linked${how ? html` ${how}` : null} to
      <a href="/authors/${author.id}">${isolate(author.name)}</a>
      (${countOf(author.articles_count, 'article', 'articles')}, h-index ${formatCount(author.h_index)}).
    </p>
    ${
      author.last_articles.length > 0
        ? html`<ul>
            ${author.last_articles.map((a) => html`<li>${isolate(a.title)} (${a.year ?? 'n.d.'})</li>`)}
          </ul>`
        : null
    }`;
}

/**
 * The corpus authors that all fit a record left unlinked, each with its newest articles, and what
 * picks one. Said as "more than one author fits" alone, the editor could tell neither who they were
 * nor what to add, and the record stayed out of its folders' boosts and limits.
 */
async function ambiguousView(ctx: AppContext, among: readonly number[]): Promise<Html> {
  const summaries = await loadAuthorSummaries(ctx.db, ctx.config.publicBaseUrl, among);
  const authors = among.flatMap((id) => summaries.get(id) ?? []);
  return html`<p>
      Not linked: these ${formatCount(authors.length)} authors of the corpus all fit what this record says,
      and a wrong link would be worse than none. To link the one it is, add that author's ORCID iD or one of
      the articles listed under them (a DOI or the title) to the record.
    </p>
    <ul>
      ${authors.map(
        (a) =>
          html`<li>
            <a href="/authors/${a.id}">${isolate(a.name)}</a> (author ${a.id},
            ${countOf(a.articles_count, 'article', 'articles')})${
              a.last_articles.length > 0
                ? html`:
                  ${a.last_articles.map(
                    (w, i) => html`${i > 0 ? '; ' : ''}${isolate(w.title)} (${w.year ?? 'n.d.'})`,
                  )}`
                : null
            }
          </li>`,
      )}
    </ul>`;
}

async function readOnlyRecord(
  ctx: AppContext,
  organizationId: number,
  stored: StoredGroupAuthor,
): Promise<Html> {
  const fields = await listOwnerCustomFields(ctx.db, organizationId, 'author_from_group');
  return html`<dl>
    ${LIST_FIELDS.map(
      (f) =>
        html`<dt>${f.label}</dt>
          <dd>${(stored[f.key] ?? []).join('; ') || '—'}</dd>`,
    )}
    ${fields.map(
      (f) =>
        html`<dt dir="auto">${f.name}</dt>
          <dd>${shownCustomValue(f, stored.custom_values[f.api_id]) || '—'}</dd>`,
    )}
  </dl>`;
}
