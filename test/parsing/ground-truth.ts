// Ground truth for the parsing fixtures and the per-field scores the bench prints and the tests
// assert as floors. Shared by test/parsing and bench/parsing.ts.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ParseResult } from '../../src/parsing/types.ts';
import { foldWords } from '../../src/infra/text-fold.ts';

export interface Truth {
  name: string;
  file: string;
  title: string;
  authors: { name: string; email: string | null; orcid: string | null; affiliations: string[] }[];
  /** False when the document itself does not print the emails the metadata lists. */
  emailsInDocument: boolean;
  referenceCount: number | null;
  referenceDois: string[] | null;
  /** The abstract as printed, without its heading; absent where no truth was written for it. */
  abstract?: string | null;
}

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

function deepRules(format: 'pdf' | 'docx', dir: string): Truth {
  const meta = parseYaml(readFileSync(path.join(dir, 'metadata.yaml'), 'utf8')) as {
    title: string;
    authors: { name: string; email?: string; orcid?: string; affiliations?: string[] }[];
  };
  const refs = JSON.parse(readFileSync(path.join(dir, 'references.json'), 'utf8')) as { DOI?: string }[];
  return {
    name: `deep-rules.${format}`,
    file: path.join(dir, `manuscript.${format}`),
    title: meta.title,
    authors: meta.authors.map((a) => ({
      name: a.name,
      email: a.email ?? null,
      orcid: a.orcid ?? null,
      affiliations: a.affiliations ?? [],
    })),
    // The manuscript (both formats) prints no email address: checked with grep on its text layer
    // and on word/document.xml. Scoring emails against metadata.yaml would measure nothing.
    emailsInDocument: false,
    referenceCount: refs.length,
    referenceDois: refs.filter((r) => r.DOI).map((r) => r.DOI!.toLowerCase()),
  };
}

const tagText = (s: string) =>
  s
    .replace(/<label>[\s\S]*?<\/label>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;])/g, '$1')
    .trim();

function jats(name: string, dir: string): Truth {
  const xmlFile = ['content', 'metadata']
    .map((k) => path.join(dir, `${name}-${k}.xml`))
    .find((f) => existsSync(f))!;
  const xml = readFileSync(xmlFile, 'utf8');
  const affs = new Map<string, string>();
  for (const m of xml.matchAll(/<aff id="([^"]+)">([\s\S]*?)<\/aff>/g)) affs.set(m[1]!, tagText(m[2]!));
  const authors = [...xml.matchAll(/<contrib contrib-type="author">([\s\S]*?)<\/contrib>/g)].map((m) => {
    const body = m[1]!;
    return {
      name: tagText(/<string-name>([\s\S]*?)<\/string-name>/.exec(body)?.[1] ?? ''),
      email: /<email>([^<]+)<\/email>/.exec(body)?.[1] ?? null,
      orcid: null,
      affiliations: [...body.matchAll(/<xref ref-type="aff" rid="([^"]+)"/g)].map(
        (x) => affs.get(x[1]!) ?? '',
      ),
    };
  });
  // Some contributors carry several emails (one <email> each).
  const extraEmails = [...xml.matchAll(/<contrib contrib-type="author">([\s\S]*?)<\/contrib>/g)].flatMap(
    (m) =>
      [...m[1]!.matchAll(/<email>([^<]+)<\/email>/g)]
        .slice(1)
        .map((e) => ({ name: '', email: e[1]!, orcid: null, affiliations: [] })),
  );
  const refList = /<ref-list>([\s\S]*?)<\/ref-list>/.exec(xml)?.[1] ?? null;
  const abstract = /<abstract[^>]*>([\s\S]*?)<\/abstract>/.exec(xml)?.[1];
  return {
    name: `cermine/${name}.pdf`,
    file: path.join(dir, `${name}.pdf`),
    title: tagText(/<article-title>([\s\S]*?)<\/article-title>/.exec(xml)?.[1] ?? ''),
    authors: [...authors, ...extraEmails],
    emailsInDocument: true,
    referenceCount: refList ? [...refList.matchAll(/<ref id=/g)].length : null,
    referenceDois: refList
      ? [...refList.matchAll(/<pub-id pub-id-type="doi">([^<]+)<\/pub-id>/g)].map((m) =>
          m[1]!.trim().toLowerCase(),
        )
      : null,
    abstract: abstract ? tagText(abstract) : null,
  };
}

export function loadTruths(root = FIXTURES): Truth[] {
  const deep = path.join(root, 'manuscripts/deep-rules');
  const cermine = path.join(root, 'pdf/cermine');
  return [
    deepRules('pdf', deep),
    deepRules('docx', deep),
    ...['test1', 'test2', 'test3', 'test5'].map((n) => jats(n, cermine)),
  ];
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

export function setCounts(predicted: string[], truth: string[]): Counts {
  const p = new Set(predicted);
  const t = new Set(truth);
  const tp = [...p].filter((x) => t.has(x)).length;
  return { tp, fp: p.size - tp, fn: t.size - tp };
}

export function addCounts(a: Counts, b: Counts): Counts {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn };
}

export function prf(c: Counts): { precision: number; recall: number; f1: number } {
  const precision = c.tp + c.fp ? c.tp / (c.tp + c.fp) : 1;
  const recall = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

export const normTitle = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.\s]+$/, '')
    .trim();
const normName = (s: string) => foldWords(s);
const normAff = (s: string) => foldWords(s);

export interface FixtureScore {
  name: string;
  titleExact: boolean;
  authors: Counts;
  emails: Counts | null;
  orcids: Counts;
  affiliations: Counts;
  referenceCount: { parsed: number; truth: number; relativeError: number } | null;
  dois: Counts | null;
}

export function scoreFixture(truth: Truth, result: ParseResult): FixtureScore {
  const named = truth.authors.filter((a) => a.name);
  const refs = result.references;
  return {
    name: truth.name,
    titleExact: normTitle(result.title ?? '') === normTitle(truth.title),
    authors: setCounts(
      result.authors.map((a) => normName(a.name)),
      named.map((a) => normName(a.name)),
    ),
    emails: truth.emailsInDocument
      ? setCounts(
          result.authors.flatMap((a) => a.emails.map((e) => e.toLowerCase())),
          truth.authors.flatMap((a) => (a.email ? [a.email.toLowerCase()] : [])),
        )
      : null,
    orcids: setCounts(
      result.authors.flatMap((a) => (a.orcid ? [a.orcid.toUpperCase()] : [])),
      truth.authors.flatMap((a) => (a.orcid ? [a.orcid.toUpperCase()] : [])),
    ),
    affiliations: setCounts(
      result.authors.flatMap((a) => a.affiliations.map(normAff)),
      named.flatMap((a) => a.affiliations.map(normAff)),
    ),
    referenceCount:
      truth.referenceCount === null
        ? null
        : {
            parsed: refs.length,
            truth: truth.referenceCount,
            // A document with no reference list: any reference found is all error, none is none.
            relativeError:
              truth.referenceCount === 0
                ? Math.min(refs.length, 1)
                : Math.abs(refs.length - truth.referenceCount) / truth.referenceCount,
          },
    dois:
      truth.referenceDois === null
        ? null
        : setCounts(
            refs.flatMap((r) => (r.doi ? [r.doi.toLowerCase()] : [])),
            truth.referenceDois,
          ),
  };
}

export interface FixtureMisses {
  title: { expected: string; found: string | null } | null;
  authors: { missed: string[]; extra: string[] };
  emails: { missed: string[]; extra: string[] } | null;
  orcids: { missed: string[]; extra: string[] };
  dois: { missed: string[]; extra: string[] } | null;
}

const setDiff = (predicted: string[], truth: string[]) => {
  const p = new Set(predicted);
  const t = new Set(truth);
  return { missed: [...t].filter((x) => !p.has(x)), extra: [...p].filter((x) => !t.has(x)) };
};

/** What scoreFixture counts as misses, spelled out: the bench lists them to group them by cause. */
export function fixtureMisses(truth: Truth, result: ParseResult): FixtureMisses {
  const named = truth.authors.filter((a) => a.name);
  return {
    title:
      normTitle(result.title ?? '') === normTitle(truth.title)
        ? null
        : { expected: truth.title, found: result.title },
    authors: setDiff(
      result.authors.map((a) => normName(a.name)),
      named.map((a) => normName(a.name)),
    ),
    emails: truth.emailsInDocument
      ? setDiff(
          result.authors.flatMap((a) => a.emails.map((e) => e.toLowerCase())),
          truth.authors.flatMap((a) => (a.email ? [a.email.toLowerCase()] : [])),
        )
      : null,
    orcids: setDiff(
      result.authors.flatMap((a) => (a.orcid ? [a.orcid.toUpperCase()] : [])),
      truth.authors.flatMap((a) => (a.orcid ? [a.orcid.toUpperCase()] : [])),
    ),
    dois:
      truth.referenceDois === null
        ? null
        : setDiff(
            result.references.flatMap((r) => (r.doi ? [r.doi.toLowerCase()] : [])),
            truth.referenceDois,
          ),
  };
}

/** Lower-cased, accent-folded words with punctuation dropped: the abstract's tokens. */
const abstractTokens = (s: string) => foldWords(s).split(' ').filter(Boolean);

/**
 * Token-overlap F1 between a parsed abstract and the true one: each word counted as often as it
 * occurs (a bag of words), so a parse that stops halfway loses recall and one that runs into the
 * introduction loses precision. Null or empty parsed text scores 0.
 */
export function abstractF1(parsed: string | null, truth: string): number {
  const p = abstractTokens(parsed ?? '');
  const t = abstractTokens(truth);
  if (!p.length || !t.length) return 0;
  const left = new Map<string, number>();
  for (const w of t) left.set(w, (left.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of p) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      common++;
      left.set(w, n - 1);
    }
  }
  if (!common) return 0;
  const precision = common / p.length;
  const recall = common / t.length;
  return (2 * precision * recall) / (precision + recall);
}
