// Conflicts of interest that must not be missed, seen through the upload (POST /api/external/proposal/):
// a cited work found by its title when the reference's DOI is not the corpus's, a person the corpus
// holds under two author ids (same ORCID), and flags the organization imported in forms the corpus
// itself does not hold (a compact ORCID, an ORCID known only to the organization's group records),
// and a manuscript author known by email only to the organization's own group records.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { tempDir } from '../corpus/helpers.ts';
import { rankingFields, upload, type FilePart } from '../manuscripts/upload-helpers.ts';
import { runCommand } from '../manuscripts/cli-helpers.ts';
import { makeDocx, paragraph } from '../parsing/make-files.ts';
import { buildCorpus, TOPIC } from './fixtures.ts';
import { GROUP_LINKS } from '../../src/referee-finder/resolve-authors.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;

const MIA_ORCID = '0000-0002-7000-0001';
const SAM_ORCID = '0000-0002-7000-0028';
const RHEA_ORCID = '0000-0002-7000-0036';
const LEV_ORCID = '0000-0002-7000-0044';
const PIP_ORCID = '0000-0002-7000-0052';
const FLO_ORCID = '0000-0002-7000-0060';
const GIA_ORCID = '0000-0002-7000-0095';
const CY_ORCID = '0000-0002-7000-0087';
const ORA_ORCID = '0000-0003-1415-9269';
const OLI_ORCID = '0000-0002-1694-233X';
const NIA_ORCID = '0000-0001-7000-0071';
const PLACEHOLDER_ORCID = '0000-0000-0000-0000';
const MIT = {
  id: 'https://openalex.org/I63966007',
  name: 'Massachusetts Institute of Technology',
  acronyms: ['MIT'],
};
const MICHIGAN = {
  id: 'https://openalex.org/I27837315',
  name: 'University of Michigan',
  acronyms: ['UM', 'UMich'],
};
const MARYLAND = {
  id: 'https://openalex.org/I66946132',
  name: 'University of Maryland, College Park',
  acronyms: ['UM'],
};
// Two campuses OpenAlex names after a comma of one name, and one that is a university's only one so.
const UC_DAVIS = { id: 'https://openalex.org/I84218800', name: 'University of California, Davis' };
const UC_BERKELEY = { id: 'https://openalex.org/I95457486', name: 'University of California, Berkeley' };
const MICHIGAN_ANN_ARBOR = { id: 'https://openalex.org/I9000001', name: 'University of Michigan, Ann Arbor' };
const CITED_TITLE = 'Equivariant message passing for molecular graphs';
const PUNCTUATED_TITLE = 'Graph Transformers: Message-Passing over Molecular Conformers';

beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    // A person held under two author ids with one ORCID: "#2" is the id that co-wrote with the
    // manuscript author, wrote the retracted work, the cited one, or was flagged by the organization.
    {
      authors: [
        { name: 'Mia Manuscript', orcid: MIA_ORCID },
        { name: 'Sam Split #2', orcid: SAM_ORCID },
      ],
    },
    { authors: [{ name: 'Sam Split', orcid: SAM_ORCID }] },
    { authors: [{ name: 'Sam Split', orcid: SAM_ORCID }] },
    { authors: [{ name: 'Rhea Twice', orcid: RHEA_ORCID }] },
    { authors: [{ name: 'Rhea Twice', orcid: RHEA_ORCID }] },
    { authors: [{ name: 'Rhea Twice #2', orcid: RHEA_ORCID }], retracted: true },
    { authors: [{ name: 'Pip Twice', orcid: PIP_ORCID }] },
    { authors: [{ name: 'Pip Twice', orcid: PIP_ORCID }] },
    { authors: [{ name: 'Pip Twice #2', orcid: PIP_ORCID }], doi: '10.9999/pip.1' },
    { authors: [{ name: 'Flo Twice', orcid: FLO_ORCID }] },
    { authors: [{ name: 'Flo Twice #2', orcid: FLO_ORCID }] },
    { authors: [{ name: 'Gia Twice', orcid: GIA_ORCID }] },
    { authors: [{ name: 'Gia Twice #2', orcid: GIA_ORCID }] },
    // A manuscript author found by name and affiliation under one id; the other id of the same
    // ORCID co-wrote with Kit.
    {
      authors: [
        { name: 'Lev Linked', orcid: LEV_ORCID, affiliation: 'University of Lisbon, Lisbon, Portugal' },
      ],
    },
    { authors: [{ name: 'Lev Linked #2', orcid: LEV_ORCID }, { name: 'Kit Coauthor' }] },
    { authors: [{ name: 'Kit Coauthor' }] },
    // Cited by title; the corpus holds the work without a DOI.
    { authors: [{ name: 'Rita Refcited' }], title: CITED_TITLE },
    { authors: [{ name: 'Rita Refcited' }] },
    // Cited by title, punctuated differently in the reference list.
    { authors: [{ name: 'Hana Hyphencited' }], title: PUNCTUATED_TITLE },
    { authors: [{ name: 'Hana Hyphencited' }] },
    // Compound family names, written with a hyphen in one place and without in the other.
    {
      authors: [
        { name: 'María García-López', affiliation: 'Universidad de Granada, Granada, Spain' },
        { name: 'Pablo Paisano' },
      ],
    },
    { authors: [{ name: 'Pablo Paisano' }] },
    {
      authors: [
        { name: 'Inés Ruiz Moreno', affiliation: 'Universidad de Sevilla, Sevilla, Spain' },
        { name: 'Tomás Tocayo' },
      ],
    },
    { authors: [{ name: 'Tomás Tocayo' }] },
    // Letters that no accent-stripping decomposes (Turkish dotless ı, South Slavic đ), written with
    // them in one place and in ASCII in the other.
    {
      authors: [
        { name: 'Ayşe Yıldız', affiliation: 'Orta Doğu Teknik Üniversitesi, Ankara, Turkey' },
        { name: 'Deniz Dotpal' },
      ],
    },
    { authors: [{ name: 'Deniz Dotpal' }] },
    {
      authors: [
        { name: 'Đorđe Đurić', affiliation: 'University of Belgrade, Belgrade, Serbia' },
        { name: 'Vesna Strokepal' },
      ],
    },
    { authors: [{ name: 'Vesna Strokepal' }] },
    {
      authors: [
        { name: 'Kemal Aydin', affiliation: 'Hacettepe University, Ankara, Turkey' },
        { name: 'Oya Asciipal' },
      ],
    },
    { authors: [{ name: 'Oya Asciipal' }] },
    // Names a form writes with titles, degrees, or the family name first in capitals.
    {
      authors: [
        { name: 'Hans Meier', affiliation: 'Universität Heidelberg, Heidelberg, Germany' },
        { name: 'Lotte Titlepal' },
      ],
    },
    { authors: [{ name: 'Lotte Titlepal' }] },
    {
      authors: [{ name: 'Jane Roe', affiliation: 'Mayo Clinic, Rochester, USA' }, { name: 'Dee Degreepal' }],
    },
    { authors: [{ name: 'Dee Degreepal' }] },
    {
      authors: [
        { name: 'Wei Wang', affiliation: 'Tsinghua University, Beijing, China' },
        { name: 'Zhi Capspal' },
      ],
    },
    { authors: [{ name: 'Zhi Capspal' }] },
    // German umlauts typed as two letters; a Spanish name with its first family name alone.
    {
      authors: [
        { name: 'Thomas Müller', affiliation: 'University of Freiburg, Freiburg, Germany' },
        { name: 'Uwe Umlautpal' },
      ],
    },
    { authors: [{ name: 'Uwe Umlautpal' }] },
    {
      authors: [
        { name: 'Carmen Vidal', affiliation: 'Universidad de Valencia, Valencia, Spain' },
        { name: 'Paz Paternalpal' },
      ],
    },
    { authors: [{ name: 'Paz Paternalpal' }] },
    // Family names of two words, which a form writes first: a double Spanish one, one with particles.
    {
      authors: [
        { name: 'Gabriela Fuentes Rivera', affiliation: 'Universidad de Chile, Santiago, Chile' },
        { name: 'Rafa Doublepal' },
      ],
    },
    { authors: [{ name: 'Rafa Doublepal' }] },
    {
      authors: [
        { name: 'Anke van der Velde', affiliation: 'Universiteit Utrecht, Utrecht, The Netherlands' },
        { name: 'Piet Particlepal' },
      ],
    },
    { authors: [{ name: 'Piet Particlepal' }] },
    // A given name of two syllables the corpus writes as one word, a form as two.
    {
      authors: [
        { name: 'Jiahui Lanmo', affiliation: 'Fudan University, Shanghai' },
        { name: 'Jin Joinedpal' },
      ],
    },
    { authors: [{ name: 'Jin Joinedpal' }] },
    // Names a form writes family name first without a comma, or beside the author's own script.
    {
      authors: [
        { name: 'Derek F. Wong', affiliation: 'University of Macau, Macau, China' },
        { name: 'Fai Firstpal' },
      ],
    },
    { authors: [{ name: 'Fai Firstpal' }] },
    {
      authors: [
        { name: 'Hiroshi Tanaka', affiliation: 'Kyoto University, Kyoto, Japan' },
        { name: 'Aki Scriptpal' },
      ],
    },
    { authors: [{ name: 'Aki Scriptpal' }] },
    // Two people who wrote together, whose initials and family names two authors of a manuscript
    // share (they are not its authors), and their co-author.
    { authors: [{ name: 'Yusuf Quill' }, { name: 'Lena Marsh' }, { name: 'Odo Bystander' }] },
    { authors: [{ name: 'Odo Bystander' }] },
    { authors: [{ name: 'Yusuf Quill' }] },
    // An affiliation in English, which a manuscript author not in the corpus writes in their language.
    {
      authors: [{ name: 'Rosa Wienerin', affiliation: 'University of Vienna, Vienna, Austria' }],
      year: 2025,
    },
    {
      authors: [{ name: 'Rosa Wienerin', affiliation: 'University of Vienna, Vienna, Austria' }],
      year: 2025,
    },
    // Affiliations a manuscript names by an acronym or in the other English word order.
    {
      authors: [{ name: 'Hana Heidelpal', affiliation: 'Heidelberg University, Heidelberg, Germany' }],
      year: 2025,
    },
    {
      authors: [
        { name: 'Tim Delftpal', affiliation: 'Delft University of Technology, Delft, The Netherlands' },
      ],
      year: 2025,
    },
    // The University of Vienna is not the Technical University of Vienna.
    {
      authors: [{ name: 'Toni Technipal', affiliation: 'Technische Universität Wien, Vienna, Austria' }],
      year: 2025,
    },
    // An affiliation of a hospital, which a manuscript author names second, after their school.
    {
      authors: [{ name: 'Gus Hospitalpal', affiliation: 'Massachusetts General Hospital, Boston, MA, USA' }],
      year: 2025,
    },
    // Institutes of one academy, and campuses of one university, each named the most specific way.
    {
      authors: [{ name: 'Ian Iiepal', affiliation: 'IIE, Chinese Academy of Sciences, Beijing, China' }],
      year: 2025,
    },
    {
      authors: [{ name: 'Ivy Ictpal', affiliation: 'ICT, Chinese Academy of Sciences, Beijing, China' }],
      year: 2025,
    },
    {
      authors: [{ name: 'Una Ucaspal', affiliation: 'University of Chinese Academy of Sciences, Beijing' }],
      year: 2025,
    },
    {
      authors: [{ name: 'Cora Chicagopal', affiliation: 'University of Illinois at Chicago, Chicago, IL' }],
      year: 2025,
    },
    {
      authors: [{ name: 'Ulf Urbanapal', affiliation: 'University of Illinois Urbana-Champaign, IL, USA' }],
      year: 2025,
    },
    { authors: [{ name: 'Ike Illinoispal', affiliation: 'University of Illinois' }], year: 2025 },
    { authors: [{ name: 'Dora Davispal', institution: UC_DAVIS }], year: 2025 },
    { authors: [{ name: 'Bert Berkeleypal', institution: UC_BERKELEY }], year: 2025 },
    { authors: [{ name: 'Abe Arborpal', institution: MICHIGAN_ANN_ARBOR }], year: 2025 },
    { authors: [{ name: 'Cal Systempal', affiliation: 'University of California' }], year: 2025 },
    // A reviewer the corpus knows at one university, whom the organization's records place at another.
    { authors: [{ name: 'Gail Movedpal', affiliation: 'University of Oslo, Norway' }], year: 2025 },
    // A manuscript author whom only the organization's group record places at a university, and a
    // candidate of that university.
    { authors: [{ name: 'Hal Manugroup' }] },
    { authors: [{ name: 'Ivo Tartupal', affiliation: 'University of Tartu, Estonia' }], year: 2025 },
    // A reviewer whose address the organization's records hold, of a manuscript author's institution.
    { authors: [{ name: 'Eve Emailpal' }], year: 2025 },
    { authors: [{ name: 'Fay Freemailpal' }], year: 2025 },
    // Institutions the corpus knows by an acronym: one that is theirs alone, and one that two share.
    { authors: [{ name: 'Max Mitpal', institution: MIT }], year: 2025 },
    {
      authors: [{ name: 'Mae Mitname', affiliation: 'Massachusetts Institute of Technology, Cambridge, MA' }],
      year: 2025,
    },
    { authors: [{ name: 'Uli Umich', institution: MICHIGAN }], year: 2025 },
    { authors: [{ name: 'Uma Umaryland', institution: MARYLAND }], year: 2025 },
    // Two people carrying one placeholder iD, as two of the ACL corpus do.
    { authors: [{ name: 'Zhai Placeholder', orcid: PLACEHOLDER_ORCID }, { name: 'Pam Zhaipal' }] },
    { authors: [{ name: 'Zhai Placeholder' }] },
    { authors: [{ name: 'Shuo Placeholder', orcid: PLACEHOLDER_ORCID }] },
    { authors: [{ name: 'Shuo Placeholder' }] },
    { authors: [{ name: 'Pam Zhaipal' }] },
    // Two people of one name each; the organization's group record says which one an email is.
    { authors: [{ name: 'Ada Twin' }, { name: 'Tom Twinpal' }] },
    { authors: [{ name: 'Ada Twin #2' }] },
    { authors: [{ name: 'Tom Twinpal' }] },
    { authors: [{ name: 'Cy Twin' }] },
    { authors: [{ name: 'Cy Twin #2' }, { name: 'Vi Cypal' }] },
    { authors: [{ name: 'Vi Cypal' }] },
    { authors: [{ name: 'Bo Twin' }, { name: 'Uma Bopal' }] },
    { authors: [{ name: 'Bo Twin #2' }] },
    { authors: [{ name: 'Uma Bopal' }] },
    // Declared conflicts.
    { authors: [{ name: 'Ora Compact', orcid: ORA_ORCID }] },
    { authors: [{ name: 'Oli Grouporcid' }] },
    { authors: [{ name: 'Nia Otherorg' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Nell Neutral' }] },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t.close());

type Flag =
  'coauth_conflicts' | 'aff_conflicts' | 'retracted_articles' | 'referenced_articles' | 'external_coi';

interface Candidate extends Record<Flag, { exists: boolean }> {
  author_id: number;
  name: string;
  orcid: string | null;
}

async function candidatesFor(
  apiKey: string,
  extra: Record<string, string | number>,
  files: FilePart[] = [],
): Promise<Candidate[]> {
  const fields = rankingFields({
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    ...extra,
  });
  const res = await upload(t.app, { apiKey, fields, files });
  expect(res.statusCode).toBe(200);
  return (res.json() as { candidates: Candidate[] }).candidates;
}

/** A manuscript file with the upload's title and one reference, as its parse will find them. */
function docxCiting(reference: string): FilePart[] {
  const docx = makeDocx([
    paragraph('Message passing graph neural networks for molecular property prediction', 'Title'),
    paragraph('References', 'Heading1'),
    paragraph(reference),
  ]);
  return [{ name: 'ms.docx', bytes: Buffer.from(docx) }];
}

function withName(candidates: Candidate[], name: string): Candidate {
  const found = candidates.find((c) => c.author_id === ids.authorId(name));
  if (!found) throw new Error(`${name} is not among the candidates`);
  return found;
}

async function importCoi(orgId: number, lines: string[]) {
  const file = path.join(await tempDir(), 'coi.csv');
  await writeFile(file, `${lines.join('\n')}\n`);
  return runCommand(t, 'coi import', { org: orgId, file });
}

async function groupRecord(
  orgId: number,
  name: string,
  orcids: string[],
  emails: string[] = [],
  affiliations: string[] = [],
) {
  // One group per record: an organization's group names are unique (migration 0107).
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO authors_groups (organization_id, name) VALUES ($1, $2) RETURNING id`,
    [orgId, `Board of ${name}`],
  );
  await t.db.query(
    `INSERT INTO group_authors (group_id, client_id, organization_id, name, orcids, emails, affiliations, linked_author_id)
     VALUES ($1, 'c1', $2, $3, $4, $5, $6, $7)`,
    [rows[0]!.id, orgId, name.replace(/ #\d+$/, ''), orcids, emails, affiliations, ids.authorId(name)],
  );
}

/** An organization whose answers list every corpus person of the topic (more than the default 50). */
async function orgSeeingEveryone() {
  const org = await createTestOrg(t);
  await updateSettings(t.db, org.id, { max_candidates: 200 });
  return org;
}

const flaggedIn = (candidates: Candidate[]) =>
  candidates
    .filter((c) => c.external_coi.exists)
    .map((c) => c.author_id)
    .sort((a, b) => a - b);

describe('conflicts are never missed', () => {
  it('a work cited with a DOI the corpus does not hold is still found by its title', async () => {
    const org = await orgSeeingEveryone();
    const docx = makeDocx([
      paragraph('Message passing graph neural networks for molecular property prediction', 'Title'),
      paragraph('Abstract', 'Heading1'),
      paragraph('We study graph neural networks for molecules.'),
      paragraph('References', 'Heading1'),
      paragraph(
        `[1] R. Refcited. ${CITED_TITLE}. Journal of Chemistry, 12(3):45-67, 2020. doi:10.9999/JCHEM.2020.001`,
      ),
    ]);
    const candidates = await candidatesFor(
      org.apiKey,
      { origin_id: 'ms-cited', author1_name: 'Nobody Incorpus' },
      [{ name: 'ms.docx', bytes: Buffer.from(docx) }],
    );
    expect(withName(candidates, 'Rita Refcited').referenced_articles.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').referenced_articles.exists).toBe(false);
  });

  it('a work cited by title is found whatever the punctuation, case and spacing of the reference', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(
      org.apiKey,
      { origin_id: 'ms-punctuated', author1_name: 'Nobody Incorpus' },
      docxCiting(
        '[1] H. Hyphencited. Graph transformers \u2014 message passing over molecular conformers. ' +
          'Journal of Chemistry, 14(1):1-20, 2022.',
      ),
    );
    expect(withName(candidates, 'Hana Hyphencited').referenced_articles.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').referenced_articles.exists).toBe(false);
  });

  it("a work cited is found by its title written whole in the reference's text, where the reference's title was read wrong", async () => {
    const org = await orgSeeingEveryone();
    // Each of these references' parsed titles runs the title into the venue or the authors.
    for (const reference of [
      'Runon J, Doe A (2021) Graph transformers message passing over molecular conformers In: Proceedings of ICML pp 1-9',
      '[12] Runon, Jane; Doe, Alan — Graph transformers: message-passing over molecular conformers — ICML 2021',
    ]) {
      const candidates = await candidatesFor(
        org.apiKey,
        { origin_id: `ms-runon-${reference.length}`, author1_name: 'Nobody Incorpus' },
        docxCiting(reference),
      );
      expect(withName(candidates, 'Hana Hyphencited').referenced_articles.exists).toBe(true);
      expect(withName(candidates, 'Nell Neutral').referenced_articles.exists).toBe(false);
    }
    // A longer title that only begins, or ends, with a candidate's cites another work.
    for (const reference of [
      'Other A (2020) Graph transformers message passing over molecular conformers and proteins In: Proc. X',
      'Other A (2020) Learning graph transformers message passing over molecular conformers. In: Proc. X',
    ]) {
      const candidates = await candidatesFor(
        org.apiKey,
        { origin_id: `ms-longer-${reference.length}`, author1_name: 'Nobody Incorpus' },
        docxCiting(reference),
      );
      expect(withName(candidates, 'Hana Hyphencited').referenced_articles.exists).toBe(false);
    }
  });

  it("a candidate's conflicts through the other author id of the same ORCID are the one person's", async () => {
    const org = await orgSeeingEveryone();
    // Gia's email is known only to the organization's record, linked to one of her two ids.
    await groupRecord(org.id, 'Gia Twice', [], ['gia@lab.example']);
    await importCoi(org.id, [`*,${ids.authorId('Flo Twice #2')}`, '*,gia@lab.example']);
    const candidates = await candidatesFor(
      org.apiKey,
      {
        origin_id: 'ms-split',
        authors_count: 2,
        author1_name: 'Mia Manuscript',
        author1_orcid: MIA_ORCID,
        author2_name: 'Lev Linked',
        author2_aff: 'Univ. of Lisbon',
      },
      docxCiting('[1] P. Twice. Graph networks for molecules. Chemistry Letters, 2021. doi:10.9999/PIP.1'),
    );
    const having = (orcid: string) => candidates.filter((c) => c.orcid === orcid);
    // The two ids of each person are one person (corpus/authors/people.ts): one candidate, carrying the
    // conflicts found through either id.
    expect(having(SAM_ORCID)).toHaveLength(1);
    for (const c of having(SAM_ORCID)) expect(c.coauth_conflicts.exists).toBe(true);
    expect(having(RHEA_ORCID)).toHaveLength(1);
    for (const c of having(RHEA_ORCID)) expect(c.retracted_articles.exists).toBe(true);
    expect(having(PIP_ORCID)).toHaveLength(1);
    for (const c of having(PIP_ORCID)) expect(c.referenced_articles.exists).toBe(true);
    expect(having(FLO_ORCID)).toHaveLength(1);
    for (const c of having(FLO_ORCID)) expect(c.external_coi.exists).toBe(true);
    expect(having(GIA_ORCID)).toHaveLength(1);
    for (const c of having(GIA_ORCID)) expect(c.external_coi.exists).toBe(true);
    // The manuscript author found under one id is not a candidate under the other, and the co-author
    // of that other id is flagged.
    expect(having(LEV_ORCID)).toEqual([]);
    expect(withName(candidates, 'Kit Coauthor').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it("a supplied author the file's byline lacks is still the manuscript's when the parsed side is preferred", async () => {
    const org = await orgSeeingEveryone();
    await updateSettings(t.db, org.id, { prefer: 'parsed' });
    // The file names one author, not the one the form names; its parse is preferred.
    const docx = makeDocx([
      paragraph('Message passing graph neural networks for molecular property prediction', 'Title'),
      paragraph('Zed Bylineonly¹'),
      paragraph('¹Department of Chemistry, University of Somewhere, City, Country'),
      paragraph('Abstract', 'Heading1'),
      paragraph(TOPIC),
    ]);
    const fields = {
      origin_id: 'ms-byline',
      authors_count: 1,
      author1_name: 'Mia Manuscript',
      author1_orcid: MIA_ORCID,
    };
    const candidates = await candidatesFor(org.apiKey, fields, [
      { name: 'ms.docx', bytes: Buffer.from(docx) },
    ]);
    const { rows } = await t.db.query<{ authors: Array<{ name: string }> }>(
      'SELECT authors FROM manuscripts WHERE organization_id = $1 AND origin_id = $2',
      [org.id, 'ms-byline'],
    );
    // The byline was read: the parsed author comes first, the form's author after.
    expect(rows[0]!.authors.map((a) => a.name)).toEqual(['Zed Bylineonly', 'Mia Manuscript']);
    expect(candidates.filter((c) => c.orcid === MIA_ORCID)).toEqual([]);
    expect(candidates.filter((c) => c.orcid === SAM_ORCID).map((c) => c.coauth_conflicts.exists)).toEqual([
      true,
    ]);
  });

  it('a manuscript author is found whether their compound family name is hyphenated or not', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-compound',
      authors_count: 2,
      // The corpus writes "María García-López" and "Inés Ruiz Moreno".
      author1_name: 'María García López',
      author1_aff: 'Universidad de Granada',
      author2_name: 'Inés Ruiz-Moreno',
      author2_aff: 'Universidad de Sevilla',
    });
    expect(withName(candidates, 'Pablo Paisano').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Tomás Tocayo').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it('a manuscript author is found whether their name is written with ı, đ and ş or in ASCII', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-dotless',
      authors_count: 3,
      author1_name: 'Ayse Yildiz',
      author1_aff: 'Orta Dogu Teknik Universitesi, Ankara',
      author2_name: 'Dorde Duric',
      author2_aff: 'University of Belgrade',
      // The corpus writes this one in ASCII.
      author3_name: 'Kemal Aydın',
      author3_aff: 'Hacettepe University',
    });
    expect(withName(candidates, 'Deniz Dotpal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Vesna Strokepal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Oya Asciipal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it('a manuscript author is found through titles, degrees and a family name first in capitals', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-titles',
      authors_count: 3,
      author1_name: 'Prof. Dr. Hans Meier',
      author1_aff: 'Universität Heidelberg',
      author2_name: 'Jane Roe, MD, PhD',
      author2_aff: 'Mayo Clinic',
      author3_name: 'WANG Wei',
      author3_aff: 'Tsinghua University',
    });
    expect(withName(candidates, 'Lotte Titlepal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Dee Degreepal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Zhi Capspal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it('a manuscript author is found with umlauts typed as two letters, or with both family names', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-transliterated',
      authors_count: 2,
      author1_name: 'Thomas Mueller',
      author1_aff: 'University of Freiburg',
      // The corpus has her first family name only.
      author2_name: 'Carmen Vidal Ortega',
      author2_aff: 'Universidad de Valencia',
    });
    expect(withName(candidates, 'Uwe Umlautpal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Paz Paternalpal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it('a manuscript author is found with the family name first without a comma, or beside their own script', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-family-first',
      authors_count: 2,
      author1_name: 'Wong Derek F.',
      author1_aff: 'University of Macau',
      author2_name: '田中宏 Hiroshi Tanaka',
      author2_aff: 'Kyoto University',
    });
    expect(withName(candidates, 'Fai Firstpal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Aki Scriptpal').coauth_conflicts.exists).toBe(true);
    expect(candidates.some((c) => c.author_id === ids.authorId('Derek F. Wong'))).toBe(false);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it('a manuscript author is found with a family name of two words written first: in capitals, or led by particles', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-compound-first',
      authors_count: 2,
      author1_name: 'FUENTES RIVERA Gabriela',
      author1_aff: 'Universidad de Chile',
      author2_name: 'van der Velde Anke',
      author2_aff: 'Utrecht University',
    });
    expect(withName(candidates, 'Rafa Doublepal').coauth_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Piet Particlepal').coauth_conflicts.exists).toBe(true);
    expect(candidates.some((c) => c.author_id === ids.authorId('Gabriela Fuentes Rivera'))).toBe(false);
    expect(candidates.some((c) => c.author_id === ids.authorId('Anke van der Velde'))).toBe(false);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it('a manuscript author is found with a given name of two syllables written as two words', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-given-apart',
      author1_name: 'Jia Hui Lanmo',
      author1_aff: 'Fudan University',
    });
    expect(withName(candidates, 'Jin Joinedpal').coauth_conflicts.exists).toBe(true);
    expect(candidates.some((c) => c.author_id === ids.authorId('Jiahui Lanmo'))).toBe(false);
    expect(withName(candidates, 'Nell Neutral').coauth_conflicts.exists).toBe(false);
  });

  it('authors given by initials alone are not found through one co-authorship of two namesakes by initials', async () => {
    const org = await orgSeeingEveryone();
    const byInitials = await candidatesFor(org.apiKey, {
      origin_id: 'ms-initials',
      authors_count: 2,
      author1_name: 'Y. Quill',
      author2_name: 'L. Marsh',
    });
    // Yusuf Quill and Lena Marsh wrote together, but "Y." and "L." do not say they are these two.
    expect(withName(byInitials, 'Odo Bystander').coauth_conflicts.exists).toBe(false);
    expect(withName(byInitials, 'Yusuf Quill').coauth_conflicts.exists).toBe(false);
    // A given name in full beside the initials settles both.
    const withGivenName = await candidatesFor(org.apiKey, {
      origin_id: 'ms-initials-and-name',
      authors_count: 2,
      author1_name: 'Y. Quill',
      author2_name: 'Lena Marsh',
    });
    expect(withName(withGivenName, 'Odo Bystander').coauth_conflicts.exists).toBe(true);
    expect(withGivenName.some((c) => c.author_id === ids.authorId('Yusuf Quill'))).toBe(false);
  });

  it("a shared affiliation is found when the manuscript's author names it in another language", async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-wien',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'Institut für Sprachwissenschaft, Universität Wien, Österreich',
    });
    expect(withName(candidates, 'Rosa Wienerin').aff_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').aff_conflicts.exists).toBe(false);
  });

  it('a shared affiliation is found when the manuscript names it by an acronym or in the other word order', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-acronyms',
      authors_count: 2,
      author1_name: 'Nobody Incorpus',
      author1_aff: 'Institut für Informatik, Universität Heidelberg',
      author2_name: 'Noone Elseincorpus',
      author2_aff: 'TU Delft',
    });
    expect(withName(candidates, 'Hana Heidelpal').aff_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Tim Delftpal').aff_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').aff_conflicts.exists).toBe(false);
    const vienna = await candidatesFor(org.apiKey, {
      origin_id: 'ms-vienna',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'Universität Wien',
    });
    expect(withName(vienna, 'Rosa Wienerin').aff_conflicts.exists).toBe(true);
    expect(withName(vienna, 'Toni Technipal').aff_conflicts.exists).toBe(false);
  });

  it('the most specific organization an affiliation names is compared: an institute of an academy by its acronym, a campus', async () => {
    const org = await orgSeeingEveryone();
    const academy = await candidatesFor(org.apiKey, {
      origin_id: 'ms-iie',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'IIE, Chinese Academy of Sciences, Beijing, China',
    });
    expect(withName(academy, 'Ian Iiepal').aff_conflicts.exists).toBe(true);
    // Another institute of the academy, and the university the academy runs, are other places.
    expect(withName(academy, 'Ivy Ictpal').aff_conflicts.exists).toBe(false);
    expect(withName(academy, 'Una Ucaspal').aff_conflicts.exists).toBe(false);
    const campus = await candidatesFor(org.apiKey, {
      origin_id: 'ms-uiuc',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'Department of Linguistics, University of Illinois at Urbana-Champaign',
    });
    expect(withName(campus, 'Ulf Urbanapal').aff_conflicts.exists).toBe(true);
    // The university named alone may be either campus: still shared.
    expect(withName(campus, 'Ike Illinoispal').aff_conflicts.exists).toBe(true);
    expect(withName(campus, 'Cora Chicagopal').aff_conflicts.exists).toBe(false);
  });

  it('a campus after a comma is two universities where the corpus names two campuses of the name so', async () => {
    const org = await orgSeeingEveryone();
    const davis = await candidatesFor(org.apiKey, {
      origin_id: 'ms-uc-davis',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'Department of Linguistics, University of California, Davis, CA, USA',
    });
    expect(withName(davis, 'Dora Davispal').aff_conflicts.exists).toBe(true);
    expect(withName(davis, 'Bert Berkeleypal').aff_conflicts.exists).toBe(false);
    // The university named alone may be either campus: still shared.
    expect(withName(davis, 'Cal Systempal').aff_conflicts.exists).toBe(true);
    // A city after a comma, of a university the corpus names with no second campus so, is it.
    const michigan = await candidatesFor(org.apiKey, {
      origin_id: 'ms-michigan',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'University of Michigan',
    });
    expect(withName(michigan, 'Abe Arborpal').aff_conflicts.exists).toBe(true);
  });

  it("a shared affiliation is found through the affiliation the organization's own group record gives the candidate, and only for that organization", async () => {
    const org = await orgSeeingEveryone();
    const other = await orgSeeingEveryone();
    await groupRecord(org.id, 'Gail Movedpal', [], [], ['Department of Physics, ETH Zurich, Switzerland']);
    const fields = {
      origin_id: 'ms-moved',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'ETH Zurich',
    };
    expect(withName(await candidatesFor(org.apiKey, fields), 'Gail Movedpal').aff_conflicts.exists).toBe(
      true,
    );
    expect(withName(await candidatesFor(other.apiKey, fields), 'Gail Movedpal').aff_conflicts.exists).toBe(
      false,
    );
  });

  it("a shared affiliation is found through the affiliation the organization's group record gives a manuscript author", async () => {
    const org = await orgSeeingEveryone();
    await groupRecord(
      org.id,
      'Hal Manugroup',
      [],
      ['hal@manugroup.example'],
      ['Institute of Physics, University of Tartu'],
    );
    const fields = {
      origin_id: 'ms-group-aff',
      author1_name: 'Hal Manugroup',
      author1_email: 'hal@manugroup.example',
    };
    expect(withName(await candidatesFor(org.apiKey, fields), 'Ivo Tartupal').aff_conflicts.exists).toBe(true);
    // Another organization has no such record: no such conflict.
    const other = await orgSeeingEveryone();
    expect(withName(await candidatesFor(other.apiKey, fields), 'Ivo Tartupal').aff_conflicts.exists).toBe(
      false,
    );
  });

  it("a shared affiliation is found through an email domain of one institution, never a free mail provider's", async () => {
    const org = await orgSeeingEveryone();
    await groupRecord(org.id, 'Eve Emailpal', [], ['eve.emailpal@physics.uni-tartu.ee']);
    await groupRecord(org.id, 'Fay Freemailpal', [], ['fay.freemailpal@gmail.com']);
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-domain',
      authors_count: 2,
      author1_name: 'Nobody Incorpus',
      author1_email: 'nobody@cs.uni-tartu.ee',
      author2_name: 'Noone Elseincorpus',
      author2_email: 'noone.else@gmail.com',
    });
    expect(withName(candidates, 'Eve Emailpal').aff_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Fay Freemailpal').aff_conflicts.exists).toBe(false);
    expect(withName(candidates, 'Nell Neutral').aff_conflicts.exists).toBe(false);
  });

  it('a shared affiliation is found through the second organization an affiliation names', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-hospital',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'Department of Medicine, Harvard Medical School, Massachusetts General Hospital, Boston',
    });
    expect(withName(candidates, 'Gus Hospitalpal').aff_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').aff_conflicts.exists).toBe(false);
  });

  it("a shared affiliation is found when the manuscript names an institution by the corpus's acronym for it, unless two share it", async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-mit',
      authors_count: 2,
      author1_name: 'Nobody Incorpus',
      author1_aff: 'MIT, Cambridge, MA, USA',
      author2_name: 'Noone Elseincorpus',
      author2_aff: 'UM',
    });
    // By the institution's id, and by its full name where the corpus has only a string.
    expect(withName(candidates, 'Max Mitpal').aff_conflicts.exists).toBe(true);
    expect(withName(candidates, 'Mae Mitname').aff_conflicts.exists).toBe(true);
    // "UM" is Michigan's and Maryland's: it names neither.
    expect(withName(candidates, 'Uli Umich').aff_conflicts.exists).toBe(false);
    expect(withName(candidates, 'Uma Umaryland').aff_conflicts.exists).toBe(false);
    expect(withName(candidates, 'Nell Neutral').aff_conflicts.exists).toBe(false);
    const umich = await candidatesFor(org.apiKey, {
      origin_id: 'ms-umich',
      author1_name: 'Nobody Incorpus',
      author1_aff: 'Dept. of Linguistics, UMich',
    });
    expect(withName(umich, 'Uli Umich').aff_conflicts.exists).toBe(true);
    expect(withName(umich, 'Uma Umaryland').aff_conflicts.exists).toBe(false);
  });

  it('an iD whose check digit fails (a placeholder) names no one: neither one person of two, nor a manuscript author', async () => {
    const org = await orgSeeingEveryone();
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-placeholder',
      author1_name: 'Nobody Incorpus',
      author1_orcid: PLACEHOLDER_ORCID,
    });
    const zhai = withName(candidates, 'Zhai Placeholder');
    const shuo = withName(candidates, 'Shuo Placeholder');
    expect(zhai.author_id).not.toBe(shuo.author_id);
    expect([zhai.orcid, shuo.orcid]).toEqual([null, null]);
    expect(withName(candidates, 'Pam Zhaipal').coauth_conflicts.exists).toBe(false);
  });

  it('a flag imported as an ORCID without hyphens flags that ORCID, not an author id', async () => {
    const org = await orgSeeingEveryone();
    const report = await importCoi(org.id, [`*,${ORA_ORCID.replaceAll('-', '')}`]);
    expect(report).toMatchObject({ rows: 1, inserted: 1, rejected: [] });
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-compact',
      author1_name: 'Nobody Incorpus',
    });
    expect(flaggedIn(candidates)).toEqual([ids.authorId('Ora Compact')]);
  });

  it("a flag by ORCID reaches a candidate whose ORCID only the organization's own group records hold", async () => {
    const org = await orgSeeingEveryone();
    const other = await createTestOrg(t);
    await groupRecord(org.id, 'Oli Grouporcid', [`https://orcid.org/${OLI_ORCID}`]);
    // Another organization's records never speak for this one.
    await groupRecord(other.id, 'Nia Otherorg', [NIA_ORCID]);
    await importCoi(org.id, [`*,${OLI_ORCID}`, `*,${NIA_ORCID}`]);
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-group',
      author1_name: 'Nobody Incorpus',
    });
    expect(flaggedIn(candidates)).toEqual([ids.authorId('Oli Grouporcid')]);
    expect(withName(candidates, 'Nia Otherorg').external_coi.exists).toBe(false);
  });

  it("a manuscript author is the corpus author the organization's own group record links to their email or ORCID", async () => {
    const org = await orgSeeingEveryone();
    const other = await createTestOrg(t);
    await groupRecord(org.id, 'Ada Twin', [], ['ada@twin.example']);
    await groupRecord(org.id, 'Cy Twin #2', [`https://orcid.org/${CY_ORCID}`]);
    // Another organization's record never decides who this organization's authors are.
    await groupRecord(other.id, 'Bo Twin', [], ['bo@twin.example']);
    const candidates = await candidatesFor(org.apiKey, {
      origin_id: 'ms-twins',
      authors_count: 3,
      author1_name: 'Ada Twin',
      author1_email: 'ADA@twin.example',
      author2_name: 'Bo Twin',
      author2_email: 'bo@twin.example',
      author3_name: 'Cy Twin',
      author3_orcid: CY_ORCID,
    });
    const candidateIds = candidates.map((c) => c.author_id);
    expect(candidateIds).not.toContain(ids.authorId('Ada Twin'));
    expect(candidateIds).toContain(ids.authorId('Ada Twin #2'));
    expect(withName(candidates, 'Tom Twinpal').coauth_conflicts.exists).toBe(true);
    expect(candidateIds).not.toContain(ids.authorId('Cy Twin #2'));
    expect(candidateIds).toContain(ids.authorId('Cy Twin'));
    expect(withName(candidates, 'Vi Cypal').coauth_conflicts.exists).toBe(true);
    expect(candidateIds).toContain(ids.authorId('Bo Twin'));
    expect(withName(candidates, 'Uma Bopal').coauth_conflicts.exists).toBe(false);
  });
});

describe("the look-up of a manuscript author in the organization's group records", () => {
  it('reads the records whose email or ORCID keys match through their indexes, not every record', async () => {
    // Read on every upload: an organization of many records must not have them all read (migration 0033).
    const org = await orgSeeingEveryone();
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Pool') RETURNING id`,
      [org.id],
    );
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, emails, orcids, linked_author_id)
       SELECT $1, 'p' || i, $2, 'Person ' || i, ARRAY[' Person' || i || '@Pool.example '],
              ARRAY['https://orcid.org/0000-0002-' || lpad((i / 10000)::text, 4, '0') || '-' || lpad((i % 10000)::text, 4, '0')],
              $3
         FROM generate_series(1, 3000) AS i`,
      [rows[0]!.id, org.id, ids.authorId('Ada Twin')],
    );
    await t.db.exec('ANALYZE group_authors');
    const params = [org.id, ['person7@pool.example'], ['0000000200000012']];
    const found = await t.db.query<{ emails: string[]; orcids: string[] }>(GROUP_LINKS, params);
    // Both keys normalized: the email trimmed and lower-cased, the ORCID out of its URL.
    expect(found.rows.map((r) => r.emails[0]).sort()).toEqual([
      ' Person12@Pool.example ',
      ' Person7@Pool.example ',
    ]);
    const literal = GROUP_LINKS.replace('$1', String(org.id))
      .replace('$2::text[]', "'{person7@pool.example}'::text[]")
      .replace('$3::text[]', "'{0000000200000012}'::text[]");
    const plan = (await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${literal}`)).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('group_authors_email_keys_idx');
    expect(plan).toContain('group_authors_orcid_keys_idx');
  });
});
