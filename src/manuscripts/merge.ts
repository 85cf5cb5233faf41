// Supplied form metadata and the parsed file, merged field by field by the organization's `prefer`
// setting: the preferred side's value when it has one, else the other side's.
import { foldAccents } from '../infra/text-fold.ts';
import { readsAsPersonName } from '../parsing/names.ts';
import type { Prefer } from '../organizations/organizations.ts';
import type { ManuscriptAuthor } from '../referee-finder/types.ts';
import type { SuppliedAuthor } from './upload-form.ts';

/** The parsed side as stored with the manuscript (the parts of a parse result that are merged). */
export interface ParsedMetadata {
  title: string | null;
  abstract: string | null;
  keywords: string[];
  authors: Array<{ name: string; emails: string[]; orcid: string | null; affiliations: string[] }>;
}

export interface SuppliedMetadata {
  title: string;
  abstract: string;
  authors: SuppliedAuthor[];
}

export interface MergedMetadata {
  title: string;
  abstract: string;
  keywords: string[];
  authors: ManuscriptAuthor[];
  /**
   * The file's authors that match no supplied author, left out of `authors` by `prefer=supplied`:
   * still the manuscript's authors for conflicts (`conflictOnlyAuthors`). Empty with `prefer=parsed`
   * (they are in `authors`) and when no authors were supplied (the file's are then `authors`).
   */
  fileOnlyAuthors: ManuscriptAuthor[];
}

function pick(preferred: string | null | undefined, other: string | null | undefined): string {
  const a = preferred?.trim();
  if (a) return a;
  return other?.trim() ?? '';
}

/** Lower-cased letters only, accents folded: "Dr. José  Pérez-Ruiz" and "jose perez ruiz" agree. */
export function nameKey(name: string): string {
  return foldAccents(name)
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
}

/** "last name + first initial", enough to pair "J. Smith" with "John Smith" inside one manuscript. */
function shortKey(name: string): string {
  const parts = nameKey(name).split(' ');
  if (parts.length === 0 || !parts[0]) return '';
  return `${parts[parts.length - 1]} ${parts[0][0]}`;
}

function fromParsed(author: ParsedMetadata['authors'][number]): ManuscriptAuthor {
  return {
    name: author.name.trim(),
    email: author.emails[0]?.trim().toLowerCase() || null,
    orcid: author.orcid,
    affiliation: author.affiliations.length > 0 ? author.affiliations.join('; ') : null,
  };
}

function samePerson(a: ManuscriptAuthor, b: ManuscriptAuthor): boolean {
  if (a.orcid && b.orcid) return a.orcid === b.orcid;
  if (a.email && b.email && a.email === b.email) return true;
  return nameKey(a.name) === nameKey(b.name) || shortKey(a.name) === shortKey(b.name);
}

/**
 * The preferred side's author list, each author completed from their match on the other side; and
 * the other side's authors that match none of the preferred side's.
 */
function mergeAuthors(
  preferred: ManuscriptAuthor[],
  other: ManuscriptAuthor[],
): { merged: ManuscriptAuthor[]; unmatched: ManuscriptAuthor[] } {
  if (preferred.length === 0) return { merged: other, unmatched: [] };
  const unused = [...other];
  const merged = preferred.map((author) => {
    const index = unused.findIndex((candidate) => samePerson(author, candidate));
    if (index < 0) return author;
    const [match] = unused.splice(index, 1) as [ManuscriptAuthor];
    return {
      name: author.name,
      email: author.email ?? match.email,
      orcid: author.orcid ?? match.orcid,
      affiliation: author.affiliation ?? match.affiliation,
    };
  });
  return { merged, unmatched: unused };
}

/**
 * Of the file's authors the form does not name, those that count for conflicts: the ones whose name
 * reads as a person's by its words (`readsAsPersonName`, the parser's own tests of a byline name; the
 * parser reports no confidence of its own). A line the byline rules misread as an author ("Author 1", a department)
 * must not exclude a real candidate. They are then found in the corpus by the same rules as supplied
 * authors (referee-finder/resolve-authors.ts: a name alone needs a second piece of evidence).
 */
function conflictOnlyAuthors(unmatched: readonly ManuscriptAuthor[]): ManuscriptAuthor[] {
  return unmatched.filter((a) => readsAsPersonName(a.name));
}

export function mergeMetadata(
  supplied: SuppliedMetadata,
  parsed: ParsedMetadata | null,
  prefer: Prefer,
): MergedMetadata {
  const parsedAuthors = (parsed?.authors ?? []).filter((a) => a.name.trim()).map(fromParsed);
  const suppliedAuthors: ManuscriptAuthor[] = supplied.authors.map((a) => ({ ...a }));
  const parsedFirst = prefer === 'parsed';
  return {
    title: parsedFirst ? pick(parsed?.title, supplied.title) : pick(supplied.title, parsed?.title),
    abstract: parsedFirst
      ? pick(parsed?.abstract, supplied.abstract)
      : pick(supplied.abstract, parsed?.abstract),
    // The form has no keywords field: they come from the file alone.
    keywords: parsed?.keywords ?? [],
    // An author the client names is an author whichever side is preferred: dropped, they would be
    // ranked as a referee of their own manuscript and their co-authors' conflicts missed (the file's
    // byline may list only some authors, or the parser may miss one). The parsed side's extra
    // authors join the list only when it is preferred (the organization trusts what it supplies);
    // otherwise they still count for conflicts, by the same argument (an editorial system may send
    // the corresponding author alone), and the stored and answered list stays the supplied one.
    ...authorsBy(parsedFirst, parsedAuthors, suppliedAuthors),
  };
}

function authorsBy(
  parsedFirst: boolean,
  parsedAuthors: ManuscriptAuthor[],
  suppliedAuthors: ManuscriptAuthor[],
): Pick<MergedMetadata, 'authors' | 'fileOnlyAuthors'> {
  if (parsedFirst) {
    const { merged, unmatched } = mergeAuthors(parsedAuthors, suppliedAuthors);
    return { authors: [...merged, ...unmatched], fileOnlyAuthors: [] };
  }
  const { merged, unmatched } = mergeAuthors(suppliedAuthors, parsedAuthors);
  return { authors: merged, fileOnlyAuthors: conflictOnlyAuthors(unmatched) };
}
