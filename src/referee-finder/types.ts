// The contract between the manuscript upload (src/manuscripts/) and the referee finder
// (src/referee-finder/): what the upload hands over, and what comes back for the response.
import type { ParsedReference } from '../parsing/types.ts';
import type { Explanation } from './concepts.ts';
import type { Conflict } from './conflict-policy.ts';

/** One author of the manuscript, after merging supplied and parsed metadata. */
export interface ManuscriptAuthor {
  name: string;
  email: string | null;
  orcid: string | null;
  affiliation: string | null;
}

/** A reference of the manuscript, as the parser reads it (stored with the manuscript). */
export type ManuscriptReference = ParsedReference;

/** The stored, merged manuscript the referee finder ranks candidates for. */
export interface ManuscriptForRanking {
  organizationId: number;
  manuscriptId: number;
  originId: string;
  folderId: number;
  title: string;
  abstract: string;
  keywords: string[];
  /** Parsed full text of the source file, null when no file was parsed. */
  fullText: string | null;
  authors: ManuscriptAuthor[];
  /**
   * Authors read from the file that the form does not name, left out of `authors` by the
   * organization's `prefer=supplied` (src/manuscripts/merge.ts): the manuscript's authors for
   * conflicts and never its candidates, and every conflict only they give says so (conflict-policy.ts).
   * Absent: none.
   */
  fileOnlyAuthors?: ManuscriptAuthor[];
  references: ManuscriptReference[];
}

/** Inclusive bounds from the upload form (min_h_index, max_h_index, ...); undefined = unbounded. */
export interface CandidateFilters {
  minHIndex?: number;
  maxHIndex?: number;
  minAcademicAge?: number;
  maxAcademicAge?: number;
  minArticlesCount?: number;
  maxArticlesCount?: number;
}

export type GroupsEffect = 'highlight' | 'limit_to' | 'boost';

/** The folder's referee-finder settings naming authors groups; null when it names none. */
export interface FolderGroupsSettings {
  groups: Array<{ id: number; name: string; label: string | null }>;
  effect: GroupsEffect;
  boostMultiplier: number | null;
}

export interface FindCandidatesOptions {
  filters: CandidateFilters;
  groups: FolderGroupsSettings | null;
  /** From the organization's settings. */
  includeConflicts: boolean;
  includeWithoutEmail: boolean;
  maxCandidates: number;
}

/** A candidate as 2.3 describes it, without `marked`/`marked_by` (the upload adds those). */
export interface RankedCandidate {
  name: string;
  first_name: string;
  last_name: string;
  middle_name: string | null;
  suffix: string | null;
  author_id: number;
  email: string | null;
  orcid: string | null;
  affiliation: string | null;
  articlesCount: number;
  citationsCount: number;
  hIndex: number;
  score: number;
  url: string;
  relevant_concepts: string[];
  relevant_articles: Array<{ id: number; title: string; year: number; url: string }>;
  authors_groups: Array<{ group_id: number; client_id: string | null }>;
  coauth_conflicts: { exists: boolean };
  aff_conflicts: { exists: boolean };
  retracted_articles: { exists: boolean };
  referenced_articles: { exists: boolean };
  external_coi: { exists: boolean };
}

export interface FindCandidatesResult {
  candidates: RankedCandidate[];
  /** The manuscript's key concepts (debug_info.extracted_concepts is their count). */
  concepts: string[];
  /** Per candidate (author_id), every conflict the policy found with its evidence (conflict-policy.ts). */
  conflicts: Map<number, Conflict[]>;
  /** Why each candidate is there, by author id (docs/ranking.md); not part of the API's answer. */
  explanations: Map<number, Explanation>;
  /** The multiplier the folder's group boost gave each candidate it applied to, by author id. */
  boosts: Map<number, number>;
}
