// Conflicts of interest: ONE pure policy (docs/conflicts.md). Facts about the manuscript's authors and
// about a candidate in, every conflict with its evidence out. No database here: the facts are gathered
// by conflict-facts.ts; the upload's flags (spec 2.3, `{exists}`) and the dashboard's evidence are both
// read from what this returns.
import {
  affiliationCoresMatch,
  cachedAffiliationReading,
  withCampuses,
  type Campuses,
} from '../corpus/authors/affiliations.ts';
import { recentSince, type RecentAffiliation } from '../corpus/authors/metrics.ts';
import { institutionalDomain } from '../corpus/authors/email-domain.ts';

export const CONFLICT_KINDS = [
  'coauth_conflicts',
  'aff_conflicts',
  'retracted_articles',
  'referenced_articles',
  'external_coi',
] as const;
export type ConflictKind = (typeof CONFLICT_KINDS)[number];

export interface WorkRef {
  id: number;
  title: string;
  year: number | null;
}

export type Conflict =
  | {
      kind: 'coauth_conflicts';
      /**
       * The shared work, and which of the manuscript's authors (corpus id) wrote it with the candidate;
       * `manuscript_author_only_in_file`: that author was read from the file, not named in the form
       * (ManuscriptFacts.fileOnly).
       */
      evidence: { work: WorkRef; manuscript_author_id: number; manuscript_author_only_in_file?: true };
    }
  | {
      kind: 'aff_conflicts';
      /**
       * The candidate's affiliation and the manuscript author's one it matches (same institution id or
       * name); where that one came from: given with the manuscript (for `manuscript_author`, the author
       * it was given for), or read in the corpus from a manuscript author's recent works (the author
       * then not named: the corpus knows the person, not which byline entry they are).
       * `manuscript_author_only_in_file`: the manuscript's affiliation is that of an author read from
       * the file, not named in the form (ManuscriptFacts.fileOnly).
       */
      evidence: {
        candidate_affiliation: string;
        manuscript_affiliation: string;
        by: 'institution' | 'name' | 'email_domain';
        manuscript_source?: 'manuscript' | 'corpus' | 'group';
        manuscript_author?: string | null;
        manuscript_author_only_in_file?: true;
      };
    }
  | { kind: 'retracted_articles'; evidence: { work: WorkRef } }
  | {
      kind: 'referenced_articles';
      /** The candidate's work and the manuscript's reference that cites it (its raw text or title). */
      evidence: { work: WorkRef; reference: string };
    }
  | {
      kind: 'external_coi';
      /** The organization's flag: for this manuscript (origin_id) or all (null), and what it names. */
      evidence: { origin_id: string | null; matched: 'author_id' | 'orcid' | 'email'; value: string };
    };

/** The manuscript's side, as conflict-facts.ts reads it. */
export interface ManuscriptFacts extends AuthorFacts {
  /**
   * The same facts of the authors read from the file that the form does not name (left out of the
   * manuscript's author list by the organization's `prefer=supplied`, src/manuscripts/merge.ts), with
   * the corpus records only they were found as. They are the manuscript's authors here too, and a
   * conflict only they give says so in its evidence (`manuscript_author_only_in_file`).
   */
  fileOnly?: AuthorFacts & { authorIds: readonly number[] };
}

/** Facts about a set of the manuscript's authors. */
export interface AuthorFacts {
  /** Affiliations given with the manuscript's authors (form or parsed file). */
  statedAffiliations: ReadonlyArray<string | null>;
  /** The names of the authors they were given for, in the same order (absent: not known). */
  statedBy?: ReadonlyArray<string>;
  /** Emails given with the manuscript's authors, and for whom. */
  statedEmails?: ReadonlyArray<{ email: string; author: string | null }>;
  /**
   * The corpus institutions a stated affiliation names by one of their other names ("MIT", "ETH
   * Zürich": OpenAlex's acronyms and alternatives), where the name is one institution's only.
   */
  statedInstitutions?: ReadonlyArray<{
    institutionId: number;
    institutionName: string;
    /** The stated affiliation, as given, and the author it was given for. */
    affiliation: string;
    author: string | null;
  }>;
  /** The manuscript's authors found in the corpus (every id of each person). */
  corpusAuthors: ReadonlyArray<{
    institutionId: number | null;
    institutionName: string | null;
    recentAffiliation: string | null;
    /** Every affiliation of their recent works (authors.recent_affiliations); null: not computed yet. */
    recentAffiliations?: readonly RecentAffiliation[] | null;
  }>;
  /** The affiliations the organization's own group records give the manuscript's authors found in the corpus. */
  groupAffiliations?: readonly string[];
}

/** A candidate's side: every fact is the person's, found through any of their ids. */
export interface CandidateFacts {
  /** The most recent affiliation (the newest work's first), compared only while the list below is not computed. */
  institutionId: number | null;
  institutionName: string | null;
  recentAffiliation: string | null;
  /**
   * Every affiliation the person's records stated in recent works, with the year last stated
   * (authors.recent_affiliations); null or absent: not computed yet (a corpus loaded before
   * migration 0091 and not recomputed since).
   */
  recentAffiliations?: readonly RecentAffiliation[] | null;
  /**
   * The affiliations the organization's own authors-group records give the person: compared whatever
   * their age, as the organization's word on where the person is now.
   */
  groupAffiliations?: readonly string[];
  /**
   * The addresses the organization's own group records and uploads give the person: the ones whose
   * domain is compared with the manuscript authors' (the corpus's may be years old).
   */
  organizationEmails?: readonly string[];
  /** Every corpus id of the person (same ORCID). */
  ids: readonly number[];
  /** The corpus's ORCID and those the organization's group records give the person (normalized). */
  orcids: readonly string[];
  /** The corpus's, the organization's group records', and those it learnt from its own uploads. */
  emails: readonly string[];
  coauthoredWorks: ReadonlyArray<{ work: WorkRef; manuscriptAuthorId: number }>;
  retractedWorks: readonly WorkRef[];
  citedWorks: ReadonlyArray<{ work: WorkRef; reference: string }>;
}

/** A row the organization imported (`refmatch coi import`), already scoped to this manuscript or all. */
export interface OrganizationFlag {
  originId: string | null;
  authorId: number | null;
  orcid: string | null;
  email: string | null;
}

/**
 * Where a manuscript author's affiliation came from: given with the manuscript, and for whom; or read
 * in the corpus; and whether from an author read from the file alone.
 */
interface Origin {
  source: 'manuscript' | 'corpus' | 'group';
  author: string | null;
  onlyInFile: boolean;
}

/** The evidence's mark of a manuscript author read from the file alone, where it is one. */
const onlyInFile = (yes: boolean) => (yes ? { manuscript_author_only_in_file: true as const } : {});

interface Affiliation extends Origin {
  name: string;
  /** Every organization the name names, the principal one first (corpus/authors/affiliations.ts). */
  organizations: readonly string[];
}

/** What the policy is told besides the facts. */
export interface PolicyOptions {
  /** Affiliations count while stated in works of RECENT_AFFILIATION_YEARS before it, or later (authors/metrics.ts). */
  currentYear: number;
  /**
   * The campuses the corpus's institutions name after a comma, of the organizations the upload's
   * affiliations name so (`institutionCampuses` in conflict-facts.ts); none: every campus after a
   * comma is its university.
   */
  campuses?: Campuses;
}

/**
 * The policy for one manuscript. Normalizes the manuscript side once: normalizing both names on each
 * comparison (20 authors of a parsed PDF against every candidate of the pool) cost ~28 ms per upload.
 * A candidate's affiliation strings are normalised once a process (`cachedAffiliationReading`), not
 * read from the core stored with the corpus's recent affiliations: that one follows the rules of the
 * day it was computed, and a rule added since (another language's words) would miss there.
 */
export function conflictPolicy(
  manuscript: ManuscriptFacts,
  flags: readonly OrganizationFlag[],
  options: PolicyOptions,
): (candidate: CandidateFacts) => Conflict[] {
  const since = recentSince(options.currentYear);
  const campuses = options.campuses ?? new Map<string, ReadonlySet<string>>();
  const organizationsOf = (name: string) => withCampuses(cachedAffiliationReading(name), campuses);
  const institutions = new Map<number, Affiliation>();
  const addInstitution = (id: number | null, name: string | null, from: Origin) => {
    if (id !== null && !institutions.has(id)) {
      institutions.set(id, { name: name ?? `institution ${id}`, organizations: [], ...from });
    }
  };
  const seen = new Set<string>();
  const affiliations: Affiliation[] = [];
  const addName = (name: string | null, from: Origin) => {
    if (!name || name.trim() === '' || seen.has(name)) return;
    seen.add(name);
    const organizations = organizationsOf(name);
    if (organizations.length > 0) affiliations.push({ name, organizations, ...from });
  };
  // A manuscript author's affiliation: as given, the corpus institution it names by another name,
  // those the organization's own group records give them, their most recent one in the corpus (a manuscript is written now: their latest is their
  // best-known current one, however old), and every one of their recent works. The authors the form
  // names first: a conflict they give is never put down to an author read from the file alone.
  const domains = new Map<string, { author: string | null; onlyInFile: boolean }>();
  const addAuthors = (facts: AuthorFacts, fromFile: boolean) => {
    const corpus: Origin = { source: 'corpus', author: null, onlyInFile: fromFile };
    const given = (author: string | null): Origin => ({ source: 'manuscript', author, onlyInFile: fromFile });
    facts.statedAffiliations.forEach((name, i) => addName(name, given(facts.statedBy?.[i] ?? null)));
    for (const s of facts.statedInstitutions ?? []) {
      addInstitution(s.institutionId, s.affiliation, given(s.author));
      // Its full name too, for a candidate whose affiliation the corpus has as a string only.
      addName(s.institutionName, given(s.author));
    }
    for (const name of facts.groupAffiliations ?? [])
      addName(name, { source: 'group', author: null, onlyInFile: fromFile });
    for (const a of facts.corpusAuthors) {
      addInstitution(a.institutionId, a.institutionName ?? a.recentAffiliation, corpus);
      addName(a.recentAffiliation, corpus);
      addName(a.institutionName, corpus);
      for (const r of a.recentAffiliations ?? []) {
        if (r.year < since) continue;
        addInstitution(r.institution_id, r.name, corpus);
        addName(r.name, corpus);
      }
    }
    // Institutional email domains of the manuscript's authors (corpus/authors/email-domain.ts).
    for (const { email, author } of facts.statedEmails ?? []) {
      const domain = institutionalDomain(email);
      if (domain !== null && !domains.has(domain)) domains.set(domain, { author, onlyInFile: fromFile });
    }
  };
  addAuthors(manuscript, false);
  if (manuscript.fileOnly) addAuthors(manuscript.fileOnly, true);
  const fileOnlyIds = new Set(manuscript.fileOnly?.authorIds ?? []);

  return (c) => {
    const out: Conflict[] = [];
    for (const w of c.coauthoredWorks) {
      out.push({
        kind: 'coauth_conflicts',
        evidence: {
          work: w.work,
          manuscript_author_id: w.manuscriptAuthorId,
          ...onlyInFile(fileOnlyIds.has(w.manuscriptAuthorId)),
        },
      });
    }
    const aff =
      affiliationConflict(candidateAffiliations(c, since), institutions, affiliations, organizationsOf) ??
      emailDomainConflict(c.organizationEmails ?? [], domains);
    if (aff) out.push(aff);
    for (const work of c.retractedWorks) out.push({ kind: 'retracted_articles', evidence: { work } });
    for (const w of c.citedWorks) {
      out.push({ kind: 'referenced_articles', evidence: { work: w.work, reference: w.reference } });
    }
    for (const flag of flags) {
      const matched = flagMatch(flag, c);
      if (matched) out.push({ kind: 'external_coi', evidence: { origin_id: flag.originId, ...matched } });
    }
    return out;
  };
}

/** An affiliation of the candidate to compare: an institution id, or a name. */
interface CandidateAffiliation {
  institutionId: number | null;
  name: string | null;
}

/**
 * The candidate's affiliations to compare: every one stated in their recent works (any record of the
 * person), newest first; where those are not computed yet, the most recent affiliation, however old;
 * then those the organization's own group records give.
 */
function candidateAffiliations(c: CandidateFacts, since: number): CandidateAffiliation[] {
  const fromGroups = (c.groupAffiliations ?? []).map((name) => ({ institutionId: null, name }));
  if (c.recentAffiliations === null || c.recentAffiliations === undefined) {
    return [
      { institutionId: c.institutionId, name: c.recentAffiliation ?? c.institutionName },
      ...[c.recentAffiliation, c.institutionName].map((name) => ({ institutionId: null, name })),
      ...fromGroups,
    ];
  }
  return [
    ...c.recentAffiliations
      .filter((r) => r.year >= since)
      .map((r) => ({ institutionId: r.institution_id, name: r.name })),
    ...fromGroups,
  ];
}

/**
 * Same institution as any manuscript author: by institution id where both sides know one, else by
 * affiliation names (departments and campuses of one university agree, corpus/authors/affiliations.ts). The
 * evidence names the candidate's affiliation that matched.
 */
function affiliationConflict(
  own: readonly CandidateAffiliation[],
  institutions: Map<number, Affiliation>,
  affiliations: readonly Affiliation[],
  organizationsOf: (name: string) => readonly string[],
): Conflict | null {
  for (const a of own) {
    if (a.institutionId === null || !institutions.has(a.institutionId)) continue;
    const theirs = institutions.get(a.institutionId)!;
    return {
      kind: 'aff_conflicts',
      evidence: {
        candidate_affiliation: a.name ?? theirs.name,
        manuscript_affiliation: theirs.name,
        by: 'institution',
        manuscript_source: theirs.source,
        manuscript_author: theirs.author,
        ...onlyInFile(theirs.onlyInFile),
      },
    };
  }
  if (affiliations.length === 0) return null;
  for (const a of own) {
    if (!a.name) continue;
    // Any organization of one against any of the other: an author of a university and its hospital
    // shares an affiliation with a candidate of either.
    const own = organizationsOf(a.name);
    const hit = affiliations.find((m) =>
      own.some((x) => m.organizations.some((y) => affiliationCoresMatch(x, y))),
    );
    if (hit) {
      return {
        kind: 'aff_conflicts',
        evidence: {
          candidate_affiliation: a.name,
          manuscript_affiliation: hit.name,
          by: 'name',
          manuscript_source: hit.source,
          manuscript_author: hit.author,
          ...onlyInFile(hit.onlyInFile),
        },
      };
    }
  }
  return null;
}

/**
 * Written from one institution's email domain as a manuscript author ("cs.stanford.edu" and
 * "med.stanford.edu"): a shared affiliation whatever the affiliation strings say.
 */
function emailDomainConflict(
  emails: readonly string[],
  domains: Map<string, { author: string | null; onlyInFile: boolean }>,
): Conflict | null {
  if (domains.size === 0) return null;
  for (const email of emails) {
    const domain = institutionalDomain(email);
    const theirs = domain === null ? undefined : domains.get(domain);
    if (domain === null || theirs === undefined) continue;
    return {
      kind: 'aff_conflicts',
      evidence: {
        candidate_affiliation: domain,
        manuscript_affiliation: domain,
        by: 'email_domain',
        manuscript_source: 'manuscript',
        manuscript_author: theirs.author,
        ...onlyInFile(theirs.onlyInFile),
      },
    };
  }
  return null;
}

function flagMatch(
  flag: OrganizationFlag,
  c: CandidateFacts,
): { matched: 'author_id' | 'orcid' | 'email'; value: string } | null {
  if (flag.authorId !== null && c.ids.includes(flag.authorId)) {
    return { matched: 'author_id', value: String(flag.authorId) };
  }
  if (flag.orcid !== null && c.orcids.includes(flag.orcid)) return { matched: 'orcid', value: flag.orcid };
  if (flag.email !== null) {
    const email = flag.email.toLowerCase();
    if (c.emails.some((e) => e.toLowerCase() === email)) return { matched: 'email', value: flag.email };
  }
  return null;
}

/** The five flags of spec 2.3, each `{exists}`: what the upload answers. */
export function conflictFlags(conflicts: readonly Conflict[]): Record<ConflictKind, { exists: boolean }> {
  const kinds = new Set(conflicts.map((c) => c.kind));
  return {
    coauth_conflicts: { exists: kinds.has('coauth_conflicts') },
    aff_conflicts: { exists: kinds.has('aff_conflicts') },
    retracted_articles: { exists: kinds.has('retracted_articles') },
    referenced_articles: { exists: kinds.has('referenced_articles') },
    external_coi: { exists: kinds.has('external_coi') },
  };
}
