// The dashboard's one way of paging a listing (folders, authors groups, a group's records, a
// manuscript's candidates): the page asked for, the pages there are, the address of each and the way
// between them. Each listing page wrote its own copy.
import { Type } from 'typebox';
import type { CountedPage, PageRequest } from '../infra/db/paging.ts';
import { SEARCH_MAX } from './framework.ts';
import { formatCount, html, type Html } from './html.ts';

/** The query of a listing searched by name and paged: `?q=…&page=…`. */
export const PagedSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: SEARCH_MAX })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
});

/** What PagedSearchQuery lets through. */
export interface PagedSearch {
  q?: string;
  page?: number;
}

/** The pages `total` rows make, `size` a page: at least one, empty. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/**
 * The address of page `n` of a listing at `base` searched for `q`: the search kept, page 1 without
 * a page number (the listing's own address).
 */
export function searchPageLink(base: string, q: string, n: number): string {
  const query = new URLSearchParams({ ...(q ? { q } : {}), ...(n > 1 ? { page: String(n) } : {}) });
  return query.size > 0 ? `${base}?${query.toString()}` : base;
}

/**
 * The way between pages: Previous, where this one is, Next; nothing with one page only. Rows not all
 * counted (`counted` false) have no last page by number: `fromLast` names a page by its place from the
 * last, read from the end of the listing's order, and a page reached that way (`atFromLast`) says
 * where it is from there, with the way to the first page; a page at one end reached from the other
 * knows the pages there are (`pagesKnown`).
 */
export function pagerNav(input: {
  page: number;
  pages: number;
  link: (n: number) => string;
  /** What is paged, for the landmark's name ("Pages of candidates"); "Pages" by default. */
  label?: string;
  /** False when the rows were not all counted: `pages` is then this page, or the next when one follows. */
  counted?: boolean;
  /** Rows not all counted: the address of the page `k` from the last (1, the last page). */
  fromLast?: (k: number) => string;
  /** This page's place from the last (1, the last page), when it was reached from there. */
  atFromLast?: number | null;
  /** Rows not all counted, but `pages` known all the same (an end reached from the other). */
  pagesKnown?: boolean;
}): Html | null {
  const { page, pages, link, counted = true, fromLast, atFromLast, pagesKnown = false } = input;
  const label = input.label ?? 'Pages';
  if (fromLast && atFromLast) {
    return html`<nav class="pager" aria-label="${label}">
      <a href="${link(1)}">First page</a>
      <a href="${fromLast(atFromLast + 1)}" rel="prev">Previous page</a>
      <span>${atFromLast === 1 ? 'Last page' : html`Page ${formatCount(atFromLast)} from the end`}</span>
      ${atFromLast > 1 ? html`<a href="${fromLast(atFromLast - 1)}" rel="next">Next page</a>` : null}
    </nav>`;
  }
  if (pages <= 1) return null;
  return html`<nav class="pager" aria-label="${label}">
    ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous page</a>` : null}
    <span>Page ${formatCount(page)}${counted || pagesKnown ? html` of ${formatCount(pages)}` : null}</span>
    ${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next page</a>` : null}
    ${!counted && fromLast && page < pages ? html`<a href="${fromLast(1)}">Last page</a>` : null}
  </nav>`;
}

/** A page of a listing searched by name: what was asked, what it holds, and the way to its pages. */
export interface SearchedPage<T> {
  q: string;
  page: number;
  pages: number;
  total: number;
  /** False when the matches were counted only up to `total` (CountedPage): `pages` then ends at the next page. */
  counted: boolean;
  rows: T[];
  /** The address of page `n` of this search. */
  link: (n: number) => string;
  /**
   * Set when the page asked for is past the last (an old link, rows deleted since): the address of
   * the last page, to be sent there rather than shown an empty page.
   */
  pastLast: string | null;
}

/**
 * The page of the listing at `base` that the request's `?q=…&page=…` (PagedSearchQuery) asks for,
 * `size` rows a page, read by `list` (which counts what matches the search, as `total`).
 */
export async function searchedPage<T>(
  query: PagedSearch,
  base: string,
  size: number,
  list: (asked: PageRequest) => Promise<CountedPage<T>>,
): Promise<SearchedPage<T>> {
  const { q = '', page = 1 } = query;
  const { total, rows, counted = true } = await list({ search: q, limit: size, offset: (page - 1) * size });
  // Not all counted, the pages known end at the one after a full page (no page past the last to go back from).
  const pages = counted ? pageCount(total, size) : page + (rows.length === size ? 1 : 0);
  const link = (n: number) => searchPageLink(base, q, n);
  return { q, page, pages, total, counted, rows, link, pastLast: page > pages ? link(pages) : null };
}
