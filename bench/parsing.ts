// npm run bench:parsing — parsing quality per field on every fixture with ground truth, reference
// field parsing on the AnyStyle gold set, and speed beside Poppler's pdftotext and a plain unzip.
// Writes the figures to docs/benchmarks/parsing.md.
//
// Options (environment): BENCH_RUNS=n speed runs (5); BENCH_PARTS=fixtures,devset,anystyle,speed,engines,heldout
// runs only those parts and writes no page; BENCH_MISSES=1 also prints every miss of each file
// (titles, names, emails, ORCIDs, DOIs missed or extra) to the console, to group them by cause.
// BENCH_HELDOUT=dir[,dir...]: the `heldout` part scores sets kept outside the repository (their files
// may not be redistributed), each a folder of files with a truth.json shaped as the dev set's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../src/infra/config.ts';
import { processCpuMs, reapedChildrenCpuMs } from './lib/cpu-time.ts';
import { measurePdfEngines } from './lib/pdf-engines.ts';
import { parseManuscript } from '../src/parsing/parse-manuscript.ts';
import { parseReference } from '../src/parsing/references.ts';
import { docxLimits } from '../src/parsing/docx/read-docx.ts';
import { openDocxParts } from '../src/parsing/docx/zip.ts';
import { foldWords } from '../src/infra/text-fold.ts';
import {
  FIXTURES,
  abstractF1,
  addCounts,
  fixtureMisses,
  loadTruths,
  prf,
  scoreFixture,
  type Counts,
  type FixtureScore,
  type Truth,
} from '../test/parsing/ground-truth.ts';

const root = path.resolve(import.meta.dirname, '..');
const limits = parseConfig({}).parsing;
const out: string[] = [];
const say = (line = '') => {
  console.log(line);
  out.push(line);
};
const f3 = (n: number) => n.toFixed(3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const DEVSET = path.join(root, 'bench/parsing-devset');
const PARTS = ['fixtures', 'devset', 'anystyle', 'speed', 'engines', 'heldout'] as const;
const chosenParts = process.env.BENCH_PARTS?.split(',').map((p) => p.trim());
const unknownPart = chosenParts?.find((p) => !(PARTS as readonly string[]).includes(p));
if (unknownPart) throw new Error(`BENCH_PARTS: unknown part "${unknownPart}" (parts: ${PARTS.join(', ')})`);
const wanted = (part: (typeof PARTS)[number]) => !chosenParts || chosenParts.includes(part);
const listMisses = process.env.BENCH_MISSES === '1';
// The steering folder beside the checkout (../shared), or beside the worktrees' parent (../../shared).
const SHARED =
  [path.resolve(root, '../shared'), path.resolve(root, '../../shared')].find((d) => existsSync(d)) ??
  path.resolve(root, '../shared');

/** The development set: public manuscripts from other templates, truth written from their sources. */
/** A set of files with a truth.json in the dev set's shape: the dev set, or one kept elsewhere. */
function loadDevset(dir = DEVSET): Truth[] {
  const entries = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as {
    file: string;
    title: string;
    authors: { name: string; email: string | null; orcid: string | null }[];
    referenceCount: number;
    referenceDois: string[];
    abstract?: string | null;
  }[];
  return entries.map((e) => ({
    name: e.file,
    file: path.join(dir, e.file),
    title: e.title,
    authors: e.authors.map((a) => ({ ...a, affiliations: [] })),
    emailsInDocument: true,
    referenceCount: e.referenceCount,
    // DOIs are case-insensitive; the parser gives them lower-cased.
    referenceDois: e.referenceDois.map((d) => d.toLowerCase()),
    ...(e.abstract !== undefined ? { abstract: e.abstract } : {}),
  }));
}

async function quality(label: string, truths: Truth[], targets: Record<string, string>): Promise<void> {
  say(`## ${label}`);
  say('');
  const scores: FixtureScore[] = [];
  const abstracts: { name: string; f1: number; missing: boolean }[] = [];
  let failed = 0;
  for (const truth of truths) {
    const result = await parseManuscript(new Uint8Array(readFileSync(truth.file)), truth.file, limits);
    const s = scoreFixture(truth, result);
    scores.push(s);
    if (result.error) failed++;
    const rc = s.referenceCount;
    say(
      `- ${s.name}: title ${s.titleExact ? 'exact' : 'WRONG'}; authors ${s.authors.tp}/${s.authors.tp + s.authors.fn} (+${s.authors.fp} extra); ` +
        `emails ${s.emails ? `${s.emails.tp}/${s.emails.tp + s.emails.fn} (+${s.emails.fp})` : 'not printed in the document'}; ` +
        `ORCIDs ${s.orcids.tp}/${s.orcids.tp + s.orcids.fn} (+${s.orcids.fp}); affiliations ${s.affiliations.tp}/${s.affiliations.tp + s.affiliations.fn} (+${s.affiliations.fp}); ` +
        `references ${rc ? `${rc.parsed} vs ${rc.truth} (error ${(rc.relativeError * 100).toFixed(1)}%)` : 'no ground truth'}; ` +
        `DOIs ${s.dois ? `${s.dois.tp}/${s.dois.tp + s.dois.fn} (+${s.dois.fp})` : 'no ground truth'}; ${result.elapsed_ms} ms`,
    );
    if (listMisses) printMisses(truth, result);
    if (truth.abstract) {
      const f1 = abstractF1(result.abstract, truth.abstract);
      abstracts.push({ name: s.name, f1, missing: !result.abstract?.trim() });
      if (listMisses && f1 < 0.9) {
        const head = (t: string | null) => (t ? `${t.slice(0, 90)} … ${t.slice(-60)}` : 'null');
        console.log(`    abstract F1 ${f3(f1)}: expected "${head(truth.abstract)}"`);
        console.log(`      found "${head(result.abstract)}"`);
      }
    }
  }
  const total = (pick: (s: FixtureScore) => Counts | null) =>
    scores.map(pick).reduce<Counts>((a, c) => (c ? addCounts(a, c) : a), { tp: 0, fp: 0, fn: 0 });
  say('');
  say('| field | precision | recall | F1 | target |');
  say('|---|---|---|---|---|');
  const titles = scores.filter((s) => s.titleExact).length;
  say(
    `| title (exact, case and spacing normalised) | ${f3(titles / scores.length)} | ${f3(titles / scores.length)} | ${f3(titles / scores.length)} | ${targets.title} |`,
  );
  const row = (name: string, c: Counts, target: string) => {
    const m = prf(c);
    say(`| ${name} | ${f3(m.precision)} | ${f3(m.recall)} | ${f3(m.f1)} | ${target} |`);
  };
  row(
    'author names',
    total((s) => s.authors),
    targets.authors!,
  );
  row(
    'emails (documents that print them)',
    total((s) => s.emails),
    targets.emails!,
  );
  row(
    'ORCIDs',
    total((s) => s.orcids),
    targets.orcids!,
  );
  if (targets.affiliations)
    row(
      'affiliations (per author)',
      total((s) => s.affiliations),
      targets.affiliations,
    );
  row(
    'reference DOIs',
    total((s) => s.dois),
    targets.dois!,
  );
  const rcs = scores.flatMap((s) => (s.referenceCount ? [s.referenceCount] : []));
  const meanError = rcs.reduce((a, r) => a + r.relativeError, 0) / rcs.length;
  say(
    `| reference count, relative error | mean ${(meanError * 100).toFixed(1)}% over ${rcs.length} files | | | ${targets.count} |`,
  );
  say(`| files that failed to parse | ${failed} of ${scores.length} | | | 0 |`);
  say('');
  abstractScores(abstracts, scores.length);
}

/**
 * The abstract, on the files whose truth has one: token-overlap F1 (words lower-cased and folded,
 * punctuation dropped), found (F1 ≥ 0.5) and missing (none parsed). Printed after the field table,
 * which keeps its rows.
 */
function abstractScores(abstracts: { name: string; f1: number; missing: boolean }[], files: number): void {
  if (!abstracts.length) {
    say(`Abstract: no true abstract among the ${files} files; not scored.`);
    say('');
    return;
  }
  const mean = abstracts.reduce((a, x) => a + x.f1, 0) / abstracts.length;
  const found = abstracts.filter((x) => x.f1 >= 0.5).length;
  const missing = abstracts.filter((x) => x.missing).length;
  say(
    `Abstract (token-overlap F1 against the printed abstract; ${abstracts.length} of ${files} files scored, the others have no true abstract): ` +
      `mean F1 ${f3(mean)}; found (F1 ≥ 0.5) ${found} of ${abstracts.length}; missing ${missing} of ${abstracts.length}`,
  );
  for (const x of abstracts) say(`- ${x.name}: abstract F1 ${f3(x.f1)}${x.missing ? ' (missing)' : ''}`);
  say('');
}

/** Every miss of one file, on the console only: the page keeps the counts. */
function printMisses(truth: Truth, result: Awaited<ReturnType<typeof parseManuscript>>): void {
  const m = fixtureMisses(truth, result);
  const show = (field: string, d: { missed: string[]; extra: string[] } | null) => {
    if (!d) return;
    if (d.missed.length) console.log(`    ${field} missed: ${d.missed.join(' | ')}`);
    if (d.extra.length) console.log(`    ${field} extra: ${d.extra.join(' | ')}`);
  };
  if (m.title) console.log(`    title: expected "${m.title.expected}", found "${m.title.found ?? ''}"`);
  show('authors', m.authors);
  show('emails', m.emails);
  show('ORCIDs', m.orcids);
  show('DOIs', m.dois);
  if (result.error) console.log(`    error: ${result.error.code}: ${result.error.message}`);
}

function anystyleGold(): void {
  const file = path.join(SHARED, 'data/references/anystyle-gold.xml');
  if (!existsSync(file)) {
    say(`AnyStyle gold set: MISSING (${file}); reference field parsing not measured`);
    return;
  }
  const xml = readFileSync(file, 'utf8');
  const decode = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"');
  // Even-numbered entries were used to design the parser, odd-numbered ones were held out.
  const halves = { design: tally(), 'held out': tally(), whole: tally() };
  const norm = (s: string) => foldWords(s);
  // The first pass compiles the name patterns and warms the JIT, as a parse worker's first upload
  // does; the figures below are from that first pass, the time also from a second one.
  const started = performance.now();
  let index = -1;
  for (const seq of xml.matchAll(/<sequence>([\s\S]*?)<\/sequence>/g)) {
    index++;
    const fields = [...seq[1]!.matchAll(/<([\w-]+)>([\s\S]*?)<\/\1>/g)].map((m) => ({
      tag: m[1]!,
      text: decode(m[2]!.trim()),
    }));
    const raw = fields.map((f) => f.text).join(' ');
    const parsed = parseReference(raw);
    const date = fields.find((f) => f.tag === 'date')?.text.match(/\b(1[5-9]\d\d|20\d\d)\b/)?.[1];
    const title = fields.find((f) => f.tag === 'title')?.text;
    const doi = fields.find((f) => f.tag === 'doi')?.text.match(/10\.\d{4,9}\/\S+/)?.[0];
    for (const t of [halves.whole, index % 2 ? halves['held out'] : halves.design]) {
      t.n++;
      if (date) {
        t.years++;
        if (parsed.year === Number(date)) t.yearsOk++;
      }
      if (title) {
        t.titles++;
        if (parsed.title && norm(parsed.title) === norm(title)) t.titlesOk++;
      }
      if (fields.some((f) => f.tag === 'author')) {
        t.authored++;
        if (parsed.authors.length > 0) t.authorsFound++;
      }
      if (doi) {
        t.dois++;
        if (parsed.doi && doi.toLowerCase().startsWith(parsed.doi.toLowerCase())) t.doisOk++;
      }
    }
  }
  const ms = performance.now() - started;
  const warm = performance.now();
  for (const seq of xml.matchAll(/<sequence>([\s\S]*?)<\/sequence>/g)) {
    parseReference(
      [...seq[1]!.matchAll(/<([\w-]+)>([\s\S]*?)<\/\1>/g)].map((m) => decode(m[2]!.trim())).join(' '),
    );
  }
  const warmMs = performance.now() - warm;
  say(
    `AnyStyle gold set (${halves.whole.n} labelled reference strings, ${(ms / halves.whole.n).toFixed(3)} ms each on the first pass, ` +
      `${(warmMs / halves.whole.n).toFixed(3)} ms on the second; targets: title exact ≥ 0.85, authors found ≥ 0.90):`,
  );
  for (const [name, t] of Object.entries(halves)) {
    say(
      `- ${name} (${t.n}): year ${t.yearsOk}/${t.years} (${f3(t.yearsOk / t.years)}), title exact ${t.titlesOk}/${t.titles} (${f3(t.titlesOk / t.titles)}), ` +
        `authors found ${t.authorsFound}/${t.authored} (${f3(t.authorsFound / t.authored)}), DOI ${t.doisOk}/${t.dois}`,
    );
  }
}

function tally() {
  return {
    n: 0,
    years: 0,
    yearsOk: 0,
    titles: 0,
    titlesOk: 0,
    authored: 0,
    authorsFound: 0,
    dois: 0,
    doisOk: 0,
  };
}

async function speed(): Promise<void> {
  const pdf = path.join(FIXTURES, 'manuscripts/deep-rules/manuscript.pdf');
  const docx = path.join(FIXTURES, 'manuscripts/deep-rules/manuscript.docx');
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const pdfBytes = new Uint8Array(readFileSync(pdf));
  await parseManuscript(pdfBytes, pdf, limits); // warm-up: module loading and JIT
  const ours: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await parseManuscript(pdfBytes, pdf, limits);
    ours.push(performance.now() - t);
  }
  // pdf.js alone (open and text of every page): the floor under our layout and header rules.
  const { getDocumentProxy } = await import('unpdf');
  const pdfjsOnly: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const doc = await getDocumentProxy(pdfBytes.slice(), { verbosity: 0 });
    for (let p = 1; p <= doc.numPages; p++)
      await (await doc.getPage(p)).getTextContent({ disableNormalization: true });
    await doc.destroy();
    pdfjsOnly.push(performance.now() - t);
  }
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  say('');
  say(
    `Speed, ${runs} runs each, median (load average at start: ${(await import('node:os')).loadavg()[0]!.toFixed(1)} on ${(await import('node:os')).cpus().length} cores):`,
  );
  if (probe.error) {
    say(
      `- PDF (25 pages): ours ${median(ours).toFixed(0)} ms; pdftotext MISSING (install Debian poppler-utils): no ratio`,
    );
  } else {
    const poppler: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      spawnSync('pdftotext', [pdf, '/dev/null']);
      poppler.push(performance.now() - t);
    }
    // Wall times on a shared machine swing with the other processes' load; CPU time much less.
    // Both sides interleaved, run after run, and their CPU seconds summed: ours from this
    // process's own usage, pdftotext's from its reaped children's.
    const cpuRuns = Math.max(runs, 10);
    let oursCpu = 0;
    let popplerCpu = 0;
    for (let i = 0; i < cpuRuns; i++) {
      const before = processCpuMs();
      await parseManuscript(pdfBytes, pdf, limits);
      oursCpu += processCpuMs() - before;
      const children = reapedChildrenCpuMs();
      spawnSync('pdftotext', [pdf, '/dev/null']);
      popplerCpu += reapedChildrenCpuMs() - children;
    }
    const version = (probe.stderr || probe.stdout).split('\n')[0];
    say(
      `- PDF (25 pages): ours ${median(ours).toFixed(0)} ms, pdftotext (${version}, process included) ${median(poppler).toFixed(0)} ms: ` +
        `ratio ${(median(ours) / median(poppler)).toFixed(2)}× (targets: ≤ 3×, ≤ 500 ms)`,
    );
    say(
      `- CPU time, ${cpuRuns} interleaved runs each: ours ${(oursCpu / cpuRuns).toFixed(0)} ms a parse (main thread; pdf.js runs in it), ` +
        `pdftotext ${(popplerCpu / cpuRuns).toFixed(0)} ms: ratio ${(oursCpu / popplerCpu).toFixed(2)}× (target ≤ 3×)`,
    );
    say(
      `- the same PDF through pdf.js alone (text of every page, no layout rules): ${median(pdfjsOnly).toFixed(0)} ms: ` +
        `${(median(pdfjsOnly) / median(poppler)).toFixed(2)}× pdftotext; our rules add ${(median(ours) - median(pdfjsOnly)).toFixed(0)} ms`,
    );
  }
  const docxBytes = new Uint8Array(readFileSync(docx));
  await parseManuscript(docxBytes, docx, limits);
  const oursDocx: number[] = [];
  const unzip: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await parseManuscript(docxBytes, docx, limits);
    oursDocx.push(performance.now() - t);
    t = performance.now();
    const zip = await openDocxParts(docxBytes, docxLimits(limits));
    await zip.stream('word/document.xml', () => true);
    zip.close();
    unzip.push(performance.now() - t);
  }
  say(
    `- DOCX (901 KB): ours ${median(oursDocx).toFixed(0)} ms, plain unzip of word/document.xml (yauzl, in process) ${median(unzip).toFixed(1)} ms: ` +
      `ratio ${(median(oursDocx) / median(unzip)).toFixed(1)}×`,
  );
}

/** The extractors that ship in a package, doing what the layout rules need, against pdftotext. */
async function engines(): Promise<void> {
  const pdf = path.join(FIXTURES, 'manuscripts/deep-rules/manuscript.pdf');
  say('');
  if (spawnSync('pdftotext', ['-v']).error) {
    say('PDF engines: pdftotext MISSING (install Debian poppler-utils): no ratios');
    return;
  }
  const rounds = Math.max(Number(process.env.BENCH_RUNS ?? 5), 10);
  const os = await import('node:os');
  say(
    `PDF engines on the 25-page PDF, CPU time of one extraction, ${rounds} rounds interleaved with pdftotext (load average at start: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores):`,
  );
  for (const f of await measurePdfEngines(pdf, rounds)) {
    say(
      f.cpuMs === null
        ? `- ${f.engine} (${f.licence}): ${f.missing}`
        : `- ${f.engine} (${f.licence}), ${f.work}: ${f.cpuMs.toFixed(0)} ms against pdftotext's ${f.pdftotextCpuMs!.toFixed(0)} ms: ${(f.cpuMs / f.pdftotextCpuMs!).toFixed(2)}×`,
    );
  }
}

/** Everything after this line of docs/benchmarks/parsing.md is written by hand and kept by a full run. */
const KEPT_MARKER = '<!-- Written by hand below this line: a full run of the bench keeps it. -->';

const NOTES = `- deep-rules prints no email address (neither the PDF nor document.xml contains an "@" address of an author), so its emails are left out of the email score; CERMINE fixtures carry them.
- CERMINE test5's JATS lists 44 references, but the article numbers 40: JATS splits four of them (fragments like "(PMID: 17693180), doi: ..."). Two of its DOIs are truncated in the JATS ("10.1046/j.1523", "10.1053/j"); ours are the full DOIs, counted as misses.
- deep-rules PDF: one DOI ("10.1377/hlthaff.2014.0048") has its "ff" ligature mapped to no Unicode in the PDF's text layer (pdftotext loses it); the ligature repair (src/parsing/pdf/ligatures.ts) restores it.
- Development set: 40 public manuscripts (38 PDF, 2 DOCX): acmart, Quarto journal formats, apaquarto, papaja, Manubot, ReScience, Springer Nature, elsarticle, JOSS/JOSE drafts, CEUR-WS, arxiv-style, JSS, PLOS; truth written from each file's source (see bench/parsing-devset/LICENSES.md); fields a document does not print (ReScience's bibliography style prints no DOI, the ACM journal samples print no email) are not expected of the parser. acmart-sigplan is an anonymous review copy: no author is printed, so every author found there is a false positive. The acmart samples' Libertine fonts map the "tt" and "ffi" ligatures to no Unicode ("hp://", "Mahew"): no parser that reads the text layer recovers them.
- AnyStyle gold set: the parser's rules were designed on the even-numbered entries; the odd-numbered ones were held out and are reported apart.
- Template sample authors are the author lines of those manuscripts and are expected: PLOS's "Name1 Surname" (superscript marks after each entry), the JASA template's "Author 1" (author groups joined by a line "and"), the aft template's lower-case "his friend" (the top line of an author block beside a named one) and the JASA template's one-word title "Title". The Melodie JOSS draft prints no byline.
- The acmart samples draw the underscore of a DOI ("3-540-65193-4_29") as a rule, not a glyph: the text layer has a space there; since round 12 the DOI is read whole from the entry's link (before, cut short: the one DOI miss in each of the three files).
- Timings are wall times on a shared 2-core machine; both sides of each ratio are measured in the same run. The CPU-time line sums user and system time of interleaved runs (ours: this process; pdftotext: its reaped children), which the other processes' load moves much less than wall time.`;

say(`# Parsing bench (npm run bench:parsing), ${new Date().toISOString()}`);
say('');
const shared = path.join(SHARED, 'fixtures');
say(`Fixtures: ${FIXTURES} (copies of ${shared}${existsSync(shared) ? '' : ', which is missing here'})`);
if (wanted('fixtures'))
  await quality('Fixtures', loadTruths(), {
    title: '1.0',
    authors: 'F1 ≥ 0.97',
    emails: '1.0',
    orcids: '1.0',
    affiliations: '—',
    dois: 'recall ≥ 0.95',
    count: '≤ 3%',
  });
if (wanted('devset'))
  await quality(
    `Development set (${path.relative(root, DEVSET)}; sources and licences in its LICENSES.md)`,
    loadDevset(),
    {
      title: '≥ 0.97',
      authors: 'F1 ≥ 0.95',
      emails: 'F1 ≥ 0.95',
      orcids: 'F1 ≥ 0.95',
      dois: 'recall ≥ 0.90',
      count: '≤ 10%',
    },
  );
if (wanted('heldout')) {
  const dirs = (process.env.BENCH_HELDOUT ?? '').split(',').filter((d) => d.trim());
  if (dirs.length === 0) say('Held-out sets: none given (BENCH_HELDOUT=dir[,dir...]); skipped.');
  for (const dir of dirs) {
    if (!existsSync(path.join(dir, 'truth.json'))) {
      say(`Held-out set ${dir}: no truth.json there; skipped.`);
      continue;
    }
    await quality(`Held-out set ${dir} (kept outside the repository)`, loadDevset(dir), {
      title: '—',
      authors: '—',
      emails: '—',
      orcids: '—',
      dois: '—',
      count: '—',
    });
  }
}
if (wanted('anystyle')) anystyleGold();
if (wanted('speed')) await speed();
if (wanted('engines')) await engines();
if (!chosenParts) {
  // The page's hand-written sections (investigations, A/B runs) follow the marker and are kept.
  const page = path.join(root, 'docs/benchmarks/parsing.md');
  const previous = existsSync(page) ? readFileSync(page, 'utf8') : '';
  const at = previous.indexOf(KEPT_MARKER);
  const kept = at >= 0 ? previous.slice(at) : `${KEPT_MARKER}\n`;
  writeFileSync(page, `${out.join('\n')}\n\nNotes:\n${NOTES}\n\n${kept}`);
}
