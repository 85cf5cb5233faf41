// A candidate's email, from every source we hold, in this order: the organization's own group records
// linked to the person, the authors of manuscripts the same organization uploaded (learnt at upload,
// migration 0066), and the corpus records' own addresses (affiliation strings, corpus/authors/emails.ts). What
// one organization learnt is never read for another: every query here takes its organization_id.
import type { Queryable } from '../infra/db/index.ts';
import type { ManuscriptAuthor, RankedCandidate } from './types.ts';
import { nameParts } from '../corpus/authors/names.ts';
import { appendTo } from '../infra/collections.ts';
import { isEmailAddress } from '../infra/email-address.ts';
import {
  candidateRows,
  groupRecordIds,
  personsOf,
  recordFacts,
  type CandidateRow,
  type GroupRecordIds,
  type RecordFacts,
} from './candidate-data.ts';

const LEARN = `
INSERT INTO organization_author_emails (organization_id, author_id, email)
SELECT $1, u.author_id, u.email FROM unnest($2::int[], $3::text[]) AS u(author_id, email)
ON CONFLICT DO NOTHING`;

const LEARNT = `
SELECT author_id, email FROM organization_author_emails
 WHERE organization_id = $1 AND author_id = ANY($2::int[])
 ORDER BY learnt_at DESC, email`;

function address(value: string | null): string | null {
  const v = value?.trim().toLowerCase();
  return v && isEmailAddress(v) ? v : null;
}

/**
 * Remembers, for the organization alone, the email each manuscript author was given with, on the
 * corpus person they were resolved to; only when they were resolved to exactly one person (an
 * author whose name fits two people teaches nothing).
 */
export async function learnManuscriptEmails(
  db: Queryable,
  organizationId: number,
  authors: readonly ManuscriptAuthor[],
  personsPerAuthor: ReadonlyArray<readonly number[]>,
): Promise<void> {
  const ids: number[] = [];
  const emails: string[] = [];
  authors.forEach((author, k) => {
    const email = address(author.email);
    const persons = new Set(personsPerAuthor[k] ?? []);
    if (!email || persons.size !== 1) return;
    ids.push([...persons][0]!);
    emails.push(email);
  });
  if (ids.length) await db.query(LEARN, [organizationId, ids, emails]);
}

/** Emails the organization learnt from its own manuscripts, per corpus author record or person id. */
export async function learntEmails(
  db: Queryable,
  organizationId: number,
  ids: readonly number[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const { rows } = await db.query<{ author_id: number; email: string }>(LEARNT, [organizationId, ids]);
  for (const r of rows) appendTo(out, r.author_id, r.email);
  return out;
}

/**
 * The first email of a person: the organization's group records, then what it learnt from its
 * manuscripts, then the corpus, each over every record of the person.
 */
export function contactEmail(
  records: readonly number[],
  sources: ReadonlyArray<(id: number) => readonly string[] | undefined>,
): string | null {
  for (const source of sources) {
    for (const id of records) {
      const email = source(id)?.[0];
      if (email) return email;
    }
  }
  return null;
}

/**
 * A person's email as a candidate is given it: the first of the organization's group records, what it
 * learnt from its manuscripts, the corpus's own addresses, over every record of the person (`records`).
 */
export function personEmail(
  records: readonly number[],
  read: {
    fromGroups: ReadonlyMap<number, GroupRecordIds>;
    learnt: ReadonlyMap<number, readonly string[]>;
    corpus: ReadonlyMap<number, RecordFacts>;
  },
): string | null {
  return contactEmail(records, [
    (x) => read.fromGroups.get(x)?.emails,
    (x) => read.learnt.get(x),
    (x) => read.corpus.get(x)?.emails,
  ]);
}

/** A candidate's contact details, as the answer (2.3) and the dashboard's exports give them. */
export type CandidateContact = Pick<
  RankedCandidate,
  | 'name'
  | 'first_name'
  | 'middle_name'
  | 'last_name'
  | 'suffix'
  | 'author_id'
  | 'email'
  | 'orcid'
  | 'affiliation'
>;

/** The contact details of a corpus author's row, with the email `personEmail` chose for them. */
export function contactOf(row: CandidateRow, email: string | null): CandidateContact {
  const parts = nameParts(row.display_name);
  return {
    name: row.display_name,
    first_name: parts.first,
    last_name: parts.last,
    middle_name: parts.middle,
    suffix: parts.suffix,
    author_id: row.id,
    email,
    orcid: row.orcid,
    affiliation: row.recent_affiliation ?? row.institution_name,
  };
}

/**
 * The contact details of these corpus authors read now for the organization, as the finder gives a
 * candidate's (the same row, the same email's sources): for an author who is no candidate of a
 * manuscript's last upload but is still marked as its referee (the dashboard's exports). Authors
 * the corpus no longer holds are left out.
 */
export async function candidateContacts(
  db: Queryable,
  organizationId: number,
  ids: readonly number[],
): Promise<Map<number, CandidateContact>> {
  if (!ids.length) return new Map();
  const [rows, people] = await Promise.all([candidateRows(db, ids), personsOf(db, ids)]);
  const personIds = [...new Set([...people.values()].flatMap((p) => p.records))];
  const [fromGroups, learnt, corpus] = await Promise.all([
    groupRecordIds(db, organizationId, personIds),
    learntEmails(db, organizationId, [...new Set([...ids, ...personIds])]),
    recordFacts(db, personIds),
  ]);
  const out = new Map<number, CandidateContact>();
  for (const [id, row] of rows) {
    const records = people.get(id)?.records ?? [id];
    out.set(id, contactOf(row, personEmail(records, { fromGroups, learnt, corpus })));
  }
  return out;
}
