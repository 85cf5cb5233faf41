// migration 0119: names stored before the one-line rule (src/infra/one-line-text.ts) with line
// breaks, tabs, ESC, C1 controls or line separators inside are made one line, as the rule would
// have let them through: each run of such characters one space, the ends trimmed; a name left empty
// named after its kind, a name then taken by another of its scope suffixed " (2)". The rows are
// written through SQL, as an older version's forms stored them.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLineProblem } from '../../src/infra/one-line-text.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.destroy());

const migration = () =>
  readFile(new URL('../../migrations/0119_one_line_names.sql', import.meta.url), 'utf8');

/** Every character the rule refuses, from the rule's own answer (U+0001..U+FFFF; text holds no NUL). */
function everyRefusedCharacter(): string {
  let all = '';
  for (let code = 1; code <= 0xffff; code++) {
    const c = String.fromCharCode(code);
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if (oneLineProblem(`a${c}b`) !== null) all += c;
  }
  return all;
}

async function one<T>(sql: string, values: unknown[]): Promise<T> {
  return (await db.query<T & object>(sql, values)).rows[0]!;
}

describe('migration 0119: names stored before the one-line rule', () => {
  it('makes every group, field, option, key label and organization name one line, ids and values kept', async () => {
    const refused = everyRefusedCharacter();
    expect(refused).toContain('\u009b');
    const org = await one<{ id: number }>(
      "INSERT INTO organizations (name) VALUES ('Acme\u009b31m Press\r\n') RETURNING id",
      [],
    );
    const blank = await one<{ id: number }>(
      "INSERT INTO organizations (name) VALUES ('\u001b') RETURNING id",
      [],
    );
    const groups = (
      await db.query<{ id: number }>(
        `INSERT INTO authors_groups (organization_id, name) VALUES
           ($1, 'Bad' || chr(13) || chr(10) || 'X-Injected: 1'), ($1, 'board'), ($1, 'Board' || chr(133)),
           ($1, chr(8232)), ($1, 'Every' || $2 || 'one'), ($1, $3 || chr(10) || 'x'), ($1, $3 || ' x')
         RETURNING id`,
        [org.id, refused, 'L'.repeat(197)],
      )
    ).rows.map((r) => r.id);

    const [stage, other] = [randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO custom_fields (api_id, organization_id, owner, data_kind, name) VALUES
         ($1, $3, 'folder', 'single_option', 'Stage' || chr(9) || 'two'),
         ($2, $3, 'folder', 'str', 'stage two')`,
      [stage, other, org.id],
    );
    const options = [randomUUID(), randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO custom_field_options (api_id, field, option, "order") VALUES
         ($1, $4, 'Yes', 0), ($2, $4, 'Yes' || chr(8233), 1), ($3, $4, 'No' || chr(27) || '[2J', 2)`,
      [...options, stage],
    );
    const folder = await one<{ id: number }>(
      "INSERT INTO folders (organization_id, name) VALUES ($1, 'F') RETURNING id",
      [org.id],
    );
    await db.query(
      'INSERT INTO folder_custom_values (folder_id, field, organization_id, value) VALUES ($1, $2, $3, $4)',
      [folder.id, stage, org.id, JSON.stringify(options[1])],
    );
    const keys = (
      await db.query<{ id: number }>(
        `INSERT INTO api_keys (organization_id, key_id, key_hash, label) VALUES
           ($1, $2, $4, 'ci' || chr(13) || chr(10) || 'X: 1'), ($1, $3, $4, chr(27))
         RETURNING id`,
        [org.id, randomBytes(8).toString('hex'), randomBytes(8).toString('hex'), randomBytes(32)],
      )
    ).rows.map((r) => r.id);

    await db.exec(await migration());

    const groupNames = (
      await db.query<{ name: string }>('SELECT name FROM authors_groups WHERE id = ANY($1) ORDER BY id', [
        groups,
      ])
    ).rows.map((r) => r.name);
    expect(groupNames).toEqual([
      'Bad X-Injected: 1',
      'board',
      'Board (2)',
      `Group ${groups[3]}`,
      'Every one',
      `${'L'.repeat(196)} (2)`,
      `${'L'.repeat(197)} x`,
    ]);
    const fieldNames = [
      (await one<{ name: string }>('SELECT name FROM custom_fields WHERE api_id = $1', [stage])).name,
      (await one<{ name: string }>('SELECT name FROM custom_fields WHERE api_id = $1', [other])).name,
    ];
    expect(fieldNames).toEqual(['Stage two (2)', 'stage two']);
    const optionNames = (
      await db.query<{ option: string }>(
        'SELECT option FROM custom_field_options WHERE field = $1 ORDER BY "order"',
        [stage],
      )
    ).rows.map((r) => r.option);
    expect(optionNames).toEqual(['Yes', 'Yes (2)', 'No [2J']);
    // The folder's value names the option by id: it is the same option, renamed.
    const value = await one<{ value: string }>(
      'SELECT value FROM folder_custom_values WHERE folder_id = $1',
      [folder.id],
    );
    expect(value.value).toBe(options[1]);
    const orgNames = (
      await db.query<{ name: string }>('SELECT name FROM organizations WHERE id = ANY($1) ORDER BY id', [
        [org.id, blank.id],
      ])
    ).rows.map((r) => r.name);
    expect(orgNames).toEqual(['Acme 31m Press', `Organization ${blank.id}`]);
    const labels = (
      await db.query<{ label: string | null }>('SELECT label FROM api_keys WHERE id = ANY($1) ORDER BY id', [
        keys,
      ])
    ).rows.map((r) => r.label);
    expect(labels).toEqual(['ci X: 1', null]);

    // Every name now passes the rule as it is, already trimmed.
    for (const name of [...groupNames, ...fieldNames, ...optionNames, ...orgNames, 'ci X: 1']) {
      expect(oneLineProblem(name), JSON.stringify(name)).toBeNull();
      expect(name.trim()).toBe(name);
    }

    // Applied again, it changes nothing.
    await db.exec(await migration());
    const again = (
      await db.query<{ name: string }>('SELECT name FROM authors_groups WHERE id = ANY($1) ORDER BY id', [
        groups,
      ])
    ).rows.map((r) => r.name);
    expect(again).toEqual(groupNames);
  });
});
