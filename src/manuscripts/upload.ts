// The upload (spec 4.5) once the form is read and the caller known: parse the file, merge metadata,
// store the manuscript (creating or moving its folder), then rank candidates when the plan and the
// form ask for them.
import type { FastifyBaseLogger } from 'fastify';
import { withMarkRunsCut } from '../infra/storable-text.ts';
import type { AppContext } from '../app-context.ts';
import type { Database } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import type { Organization } from '../organizations/organizations.ts';
import type {
  FindCandidatesOptions,
  FindCandidatesResult,
  FolderGroupsSettings,
  ManuscriptForRanking,
} from '../referee-finder/types.ts';
import { ensureFolder, folderGroupsSettings } from '../folders/folders.ts';
import { sniffSourceFormat } from './file-type.ts';
import { enqueueEvent } from '../webhooks/store.ts';
import { clearCandidates, saveCandidates } from './candidates-store.ts';
import { candidateWhy } from '../referee-finder/concepts.ts';
import { marksOf } from './marks.ts';
import { mergeMetadata } from './merge.ts';
import {
  findSourceState,
  NO_SOURCE,
  recordExtractedConcepts,
  upsertManuscript,
  type SourceState,
} from './manuscripts-store.ts';
import type { ManuscriptParser, ParsedDocument } from './parsed-document.ts';
import type { UploadedFile, UploadForm } from './upload-form.ts';
import type { AuthorsGroupsSettings, Candidate, UploadResponse } from './upload-schema.ts';

export const RESPONSE_VERSION = 7;

export type CandidateFinder = (
  ctx: AppContext,
  manuscript: ManuscriptForRanking,
  options: FindCandidatesOptions,
) => Promise<FindCandidatesResult>;

export interface UploadDeps {
  ctx: AppContext;
  parser: ManuscriptParser;
  findCandidates: CandidateFinder;
  log: FastifyBaseLogger;
  /**
   * Counts bytes the upload is about to store against the rate limits (429 past them): the text and
   * references read from its file, before they are stored.
   */
  countStored: (bytes: number) => Promise<void>;
  /**
   * A file sent but not read (empty, damaged, locked with a password, no text) is, by default,
   * stored as not parsed with the supplied metadata ranked (the API: the editorial system's call goes
   * through, its warnings say why). Given, the upload is refused with the error this makes of the
   * parse's reason, before anything is stored: a person who chose the file wants it read.
   */
  refuseUnreadFile?: (why: NonNullable<ParsedDocument['error']>) => Error;
}

/** The bytes a parse adds to what the manuscript stores: its full text and its references. */
function parsedBytes(source: SourceState): number {
  return Buffer.byteLength(source.fullText ?? '') + Buffer.byteLength(JSON.stringify(source.references));
}

/** Refuses a file that is neither PDF nor DOCX before anything is stored. */
export function checkSourceFile(file: UploadedFile | null): void {
  if (!file || file.bytes.length === 0) return;
  if (!sniffSourceFormat(file.bytes)) {
    throw errors.unsupportedMediaType(
      'The source_file must be a PDF or a DOCX document (decided by its content, not its name)',
    );
  }
}

/**
 * Parse warnings stored with a manuscript at most: a page not read is named on a line of its own
 * (some 150 characters), and a file of 300 pages of figures would store 300. The rest are counted.
 */
export const MAX_STORED_PARSE_WARNINGS = 50;

function storeParseWarnings(warnings: string[], parsed: string[]): void {
  for (const warning of parsed.slice(0, MAX_STORED_PARSE_WARNINGS)) warnings.push(`Parsing: ${warning}`);
  const rest = parsed.length - MAX_STORED_PARSE_WARNINGS;
  if (rest > 0) warnings.push(`Parsing: ${rest} more warning(s) not stored`);
}

async function readSource(deps: UploadDeps, file: UploadedFile, warnings: string[]): Promise<SourceState> {
  const format = sniffSourceFormat(file.bytes);
  const base: SourceState = { ...NO_SOURCE, sourceFile: file.fileName, sourceFormat: format };
  const unparsed = (reason: string, code = 'parser_failed'): SourceState => {
    if (deps.refuseUnreadFile) throw deps.refuseUnreadFile({ code, message: reason });
    warnings.push(`The source file could not be parsed (${reason}); supplied metadata was used`);
    return { ...base, parseError: reason };
  };
  if (file.bytes.length === 0) return unparsed('the file is empty', 'empty_file');
  let result: ParsedDocument;
  try {
    // No copy here: the parser leaves what it is given intact (the pool copies once, into the
    // buffer it transfers to its worker), and a second copy of a 30 MB file per upload was what
    // stayed in the process after hostile uploads.
    result = await deps.parser.parse(file.bytes, file.fileName ?? 'source_file');
  } catch (error) {
    deps.log.error({ err: error }, 'manuscript parser failed');
    return unparsed('the parser failed');
  }
  if (result.error) {
    const state = unparsed(result.error.message, result.error.code);
    // What the parse said before it gave up (the pages it left unread, and why) is stored too: the
    // line above gives only the reason, which the parse's last warning repeats.
    const message = result.error.message;
    storeParseWarnings(
      warnings,
      result.warnings.filter((w, i, all) => i < all.length - 1 || w !== message),
    );
    return state;
  }
  storeParseWarnings(warnings, result.warnings);
  const authors = result.authors.filter((a) => a.name.trim());
  return {
    ...base,
    // A run of marks past the limit a client's text is refused for is cut here: read from a file, the
    // text is kept (src/infra/storable-text.ts).
    parsed: {
      title: result.title === null ? null : withMarkRunsCut(result.title),
      abstract: result.abstract === null ? null : withMarkRunsCut(result.abstract),
      keywords: result.keywords.map(withMarkRunsCut),
      authors: authors.map((a) => ({
        name: withMarkRunsCut(a.name),
        emails: a.emails,
        orcid: a.orcid,
        affiliations: a.affiliations.map(withMarkRunsCut),
      })),
    },
    fullText: result.text || null,
    references: result.references.map((r) => ({
      raw: r.raw,
      doi: r.doi,
      title: r.title,
      authors: r.authors,
      year: r.year,
      container: r.container,
    })),
    counts: {
      textLen: result.text.length,
      references: result.references.length,
      authors: authors.length,
      emails: authors.reduce((n, a) => n + a.emails.length, 0),
      orcids: authors.filter((a) => a.orcid).length,
    },
  };
}

function settingsResponse(settings: FolderGroupsSettings | null): AuthorsGroupsSettings | null {
  if (!settings) return null;
  return {
    authors_groups: settings.groups.map((g) => ({ id: g.id, name: g.name, label: g.label })),
    effect: settings.effect,
    ...(settings.effect === 'boost' ? { boost_multiplier: settings.boostMultiplier ?? 1 } : {}),
  };
}

export async function uploadManuscript(
  deps: UploadDeps,
  organization: Organization,
  form: UploadForm,
  file: UploadedFile | null,
): Promise<UploadResponse> {
  const { db } = deps.ctx;
  const warnings: string[] = [];
  // A re-upload without a file keeps what was read from the file sent before.
  const source = file
    ? await readSource(deps, file, warnings)
    : ((await findSourceState(db, organization.id, form.originId)) ?? NO_SOURCE);
  if (file) await deps.countStored(parsedBytes(source));
  const merged = mergeMetadata(
    { title: form.title, abstract: form.abstract, authors: form.authors },
    source.parsed,
    organization.prefer,
  );
  if (form.authorsCount !== null && merged.authors.length !== form.authorsCount) {
    // Not an error: the count is the client's check that all authors were read. The mismatch is
    // logged and stored with the manuscript's warnings for whoever investigates.
    const found = merged.authors.length;
    warnings.push(
      `authors_count is ${form.authorsCount} but ${found} ${found === 1 ? 'author was' : 'authors were'} found`,
    );
  }
  if (warnings.length > 0) {
    deps.log.warn({ origin_id: form.originId, warnings }, 'manuscript upload warnings');
  }

  const { manuscriptId, folderId, revision } = await storeManuscript(
    db,
    organization,
    form,
    merged,
    source,
    warnings,
  );
  deps.ctx.webhooks.poke();
  const groups = await folderGroupsSettings(db, organization.id, folderId);

  let candidates: Candidate[] | null = null;
  let concepts = 0;
  if (form.excludeCandidates || !organization.features.includes('referee_finder')) {
    await clearCandidates(db, manuscriptId, revision);
  } else {
    const result = await deps.findCandidates(
      deps.ctx,
      {
        organizationId: organization.id,
        manuscriptId,
        originId: form.originId,
        folderId,
        title: merged.title,
        abstract: merged.abstract,
        keywords: merged.keywords,
        fullText: source.fullText,
        authors: merged.authors,
        fileOnlyAuthors: merged.fileOnlyAuthors,
        references: source.references,
      },
      {
        filters: form.filters,
        groups,
        includeConflicts: organization.include_conflicts,
        includeWithoutEmail: organization.include_without_email,
        maxCandidates: organization.max_candidates,
      },
    );
    concepts = result.concepts.length;
    await recordExtractedConcepts(db, manuscriptId, revision, concepts);
    await saveCandidates(
      db,
      manuscriptId,
      revision,
      result.candidates.map((c) => {
        // The explanation as the dashboard shows it (shares, phrases, works by id).
        const explanation = result.explanations.get(c.author_id);
        const boost = result.boosts.get(c.author_id);
        return {
          ...c,
          conflicts: result.conflicts.get(c.author_id) ?? [],
          why: explanation ? { ...candidateWhy(explanation), ...(boost ? { boost } : {}) } : null,
        };
      }),
      result.concepts,
      settingsResponse(groups),
    );
    const marks = await marksOf(
      db,
      manuscriptId,
      result.candidates.map((c) => c.author_id),
    );
    candidates = result.candidates.map((c) => ({
      ...c,
      marked: marks.has(c.author_id),
      marked_by: marks.get(c.author_id) ?? null,
    }));
  }

  return {
    version: RESPONSE_VERSION,
    manuscript_id: manuscriptId,
    origin_id: form.originId,
    candidates,
    authors_groups_settings: settingsResponse(groups),
    debug_info: {
      source_file: source.sourceFile,
      parsed_text_len: source.counts.textLen,
      parsed_references: source.counts.references,
      extracted_concepts: concepts,
      authors_info: {
        authors_count: source.counts.authors,
        emails_count: source.counts.emails,
        orcids_count: source.counts.orcids,
      },
    },
  };
}

async function storeManuscript(
  db: Database,
  organization: Organization,
  form: UploadForm,
  merged: ReturnType<typeof mergeMetadata>,
  source: SourceState,
  warnings: string[],
): Promise<{ manuscriptId: number; folderId: number; revision: string }> {
  return db.transaction(async (tx) => {
    const folderId = await ensureFolder(tx, organization.id, form.folder);
    const { id: manuscriptId, revision } = await upsertManuscript(tx, {
      organizationId: organization.id,
      originId: form.originId,
      folderId,
      supplied: { title: form.title, abstract: form.abstract, authors: form.authors },
      // Not stated: the count found.
      authorsCount: form.authorsCount ?? merged.authors.length,
      title: merged.title,
      abstract: merged.abstract,
      keywords: merged.keywords,
      authors: merged.authors,
      source,
      warnings,
      prefer: organization.prefer,
      fileOnlyAuthors: merged.fileOnlyAuthors,
    });
    await enqueueEvent(tx, organization.id, 'proposal_uploaded', {
      manuscript_id: manuscriptId,
      origin_id: form.originId,
      folder: form.folder,
      title: merged.title,
    });
    return { manuscriptId, folderId, revision };
  });
}
