// The organization the fuzz and the soak act as: an API key, the test fixtures' small corpus (eight
// ACL works), an authors group, and one author_from_group custom field of every kind, so that
// valid-shaped requests reach the real work (linking, custom-field checks, candidate search) and not
// only the first validation. Shared by test/system/fuzz.test.ts, bench/fuzz.ts and bench/soak.ts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/infra/db/index.ts';
import { ingestFiles } from '../../src/corpus/ingest/ingest.ts';
import { worksKind } from '../../src/corpus/openalex/entities.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createCustomField, type CustomField } from '../../src/custom-fields/store.ts';
import { DATA_KINDS } from '../../src/custom-fields/kinds.ts';
import { createOrganization } from '../../src/organizations/organizations.ts';
import { makeArticlePdf, makeDocx, paragraph } from '../parsing/make-files.ts';

export const CORPUS_FIXTURE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/corpus/yang-liu-acl.jsonl',
);

export interface Scenario {
  apiKey: string;
  organizationId: number;
  groupId: number;
  /** The author_from_group custom fields, one per data kind. */
  fields: CustomField[];
}

export async function seedScenario(db: Database, name = 'Fuzz'): Promise<Scenario> {
  const org = await createOrganization(db, { name, features: ['referee_finder', 'recommend_journals'] });
  await ingestFiles({ db, progress: () => {} }, worksKind, [CORPUS_FIXTURE]);
  const group = await createGroup(db, org.id, `${name} group`);
  const fields: CustomField[] = [];
  for (const dataKind of DATA_KINDS) {
    const options =
      dataKind === 'single_option' || dataKind === 'multi_option' ? ['red', 'green', 'blue'] : [];
    fields.push(
      await createCustomField(db, org.id, {
        owner: 'author_from_group',
        dataKind,
        name: `f_${dataKind}`,
        options,
      }),
    );
  }
  return { apiKey: org.api_key, organizationId: org.id, groupId: group.group_id, fields };
}

/** What the fuzz needs before it starts: a manuscript for 4.6 and group authors for 4.2-4.4. */
export async function seedRecords(
  app: FastifyInstance,
  scenario: Scenario,
): Promise<{ originIds: string[]; clientIds: string[] }> {
  const headers = { 'x-apikey': scenario.apiKey };
  const { body, contentType } = multipartBody([
    ['folder', 'Fuzz'],
    ['origin_id', 'fuzz-manuscript'],
    ['title', 'Discourse parsing for machine translation'],
    ['abstract', 'Summarization and translation with discourse structure.'],
    ['authors_count', '1'],
    ['author1_name', 'Yang Liu'],
  ]);
  const upload = await app.inject({
    method: 'POST',
    url: '/api/external/proposal/',
    headers: { ...headers, 'content-type': contentType },
    payload: body,
  });
  if (upload.statusCode !== 200) throw new Error(`seeding upload: ${upload.statusCode} ${upload.body}`);
  const clientIds = ['fuzz-a1', 'fuzz-a2', 'fuzz-a3', 'fuzz-a4'];
  for (const id of clientIds) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/external/author-from-group/${scenario.groupId}/${id}/`,
      headers,
      payload: { name: 'Yang Liu', affiliations: ['University of Edinburgh'] },
    });
    if (res.statusCode !== 200) throw new Error(`seeding author: ${res.statusCode} ${res.body}`);
  }
  return { originIds: ['fuzz-manuscript'], clientIds };
}

/** Small well-formed files for the upload mix: a one-page article PDF and a short DOCX. */
export function smallManuscriptFiles(): { pdf: Uint8Array; docx: Uint8Array } {
  return {
    pdf: makeArticlePdf('Neural Machine Translation with Attention over Syntactic Trees'),
    docx: makeDocx([
      paragraph('Discourse Parsing for Statistical Machine Translation', 'Title'),
      paragraph('Yang Liu, University of Edinburgh'),
      paragraph('Abstract. We study discourse-aware translation and summarization.'),
      paragraph('References'),
      paragraph('Liu, Y. and Lapata, M. 2019. Text summarization with pretrained encoders. EMNLP.'),
    ]),
  };
}

/** A multipart/form-data body, built by hand so that the fuzz can send any bytes in any field. */
export function multipartBody(
  fields: Array<[string, string]>,
  file?: { field?: string; name: string; type: string; bytes: Uint8Array },
  boundary = `----refmatch${Math.random().toString(16).slice(2)}`,
): { body: Buffer; contentType: string } {
  const parts: Buffer[] = [];
  for (const [k, v] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n`, 'utf8'));
    parts.push(Buffer.from(v, 'utf8'), Buffer.from('\r\n'));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'source_file'}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
        'utf8',
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
