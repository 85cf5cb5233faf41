// What the upload reads from a parse result. It is the part of the parser's result (src/parsing/)
// the manuscript needs; declared here as a structural type so the upload depends on fields, not on
// the parser's internals.
import type { ManuscriptReference } from '../referee-finder/types.ts';

export interface ParsedDocument {
  title: string | null;
  abstract: string | null;
  keywords: string[];
  authors: Array<{ name: string; emails: string[]; orcid: string | null; affiliations: string[] }>;
  references: ManuscriptReference[];
  text: string;
  warnings: string[];
  error: { code: string; message: string } | null;
}

export interface ManuscriptParser {
  /** Never detaches nor changes `bytes`: an implementation that needs its own copy makes it. */
  parse(bytes: Uint8Array, fileName: string): Promise<ParsedDocument>;
}
