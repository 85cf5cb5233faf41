// The id options of the dashboard's addresses (`?folder=`, `?before=`, `?after=`, `?page=`,
// `?from_end=`) written by hand: past 2,147,483,647 (the tables' integer ids), negative, with leading
// zeros, or not a number. Each is answered as the page's links would never need: a 400 naming the
// option and what it takes, or the page with a message saying what was not found; never a 500, nor
// the database's "A value has the wrong form for its field" naming nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { signInAs, type InjectSession } from '../helpers/dashboard.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { ensureFolder } from '../../src/folders/folders.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
let admin: InjectSession;
let group = 0;
let journal = 0;

const get = (session: InjectSession, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

/** Uploads a manuscript to the folder named `folder`, by the API. */
async function uploadTo(folder: string, originId: string): Promise<void> {
  const res = await upload(t.app, {
    apiKey: org.apiKey,
    fields: baseFields({ origin_id: originId, folder, title: `Manuscript ${originId}` }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
  admin = await signInAs(t, org.id, 'integrations_admin');
  group = (await createGroup(t.db, org.id, 'Pool')).group_id;
  await uploadTo('JNL', 'ms-jnl');
  journal = await ensureFolder(t.db, org.id, 'JNL');
});
afterAll(async () => t?.close());

const PAST_MAX = ['2147483648', '9999999999', '99999999999999999999'];
const NEGATIVE = ['-1', '-0'];
const NOT_A_NUMBER = ['abc', '1e3', '1.5', '0x10', ' 5', '1,2'];

describe('?folder= on the manuscripts list', () => {
  it('a number no folder can have is read as a name, and said so: never the database refusing it', async () => {
    for (const asked of [...PAST_MAX, ...NEGATIVE, '0', '00']) {
      const res = await get(editor, `/dashboard/manuscripts/?folder=${encodeURIComponent(asked)}`);
      // 9999999999 was passed on as an id: 400, "A value has the wrong form for its field".
      expect(res.statusCode, asked).toBe(200);
      expect(res.body).toContain(
        `This organization has no folder named “<bdi>${asked}</bdi>”, and no folder is numbered so (a folder's number is a whole number from 1 to 2,147,483,647): choose one above.`,
      );
      expect(res.body).not.toContain('ms-jnl');
    }
  });

  it('a name that is not a number is looked up as a name, and said not found', async () => {
    // (" 5" is the id 5: the option is trimmed, as a pasted name is.)
    for (const asked of NOT_A_NUMBER.filter((v) => v !== ' 5')) {
      const res = await get(editor, `/dashboard/manuscripts/?folder=${encodeURIComponent(asked)}`);
      expect(res.statusCode, asked).toBe(200);
      expect(res.body).toContain(`This organization has no folder named “<bdi>${asked}</bdi>”`);
      expect(res.body).not.toContain('ms-jnl');
    }
  });

  it('an id with leading zeros is that id, written back without them', async () => {
    const res = await get(editor, `/dashboard/manuscripts/?folder=000${journal}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('ms-jnl');
    expect(res.body).toMatch(new RegExp(`<option value="${journal}"\\s+selected`));
  });

  it('a folder named with digits is found by its name, where the digits were read as an id alone', async () => {
    for (const name of ['2024', '0042', '9999999999', '-7']) {
      await uploadTo(name, `ms-${name}`);
      const res = await get(editor, `/dashboard/manuscripts/?folder=${encodeURIComponent(name)}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.body, name).toContain(`ms-${name}`);
      expect(res.body).not.toContain('This organization has no folder');
    }
    // An id the organization has wins over a name of the same digits: the menu's values are ids.
    await uploadTo(String(journal), 'ms-named-like-an-id');
    const byId = (await get(editor, `/dashboard/manuscripts/?folder=${journal}`)).body;
    expect(byId).toContain('ms-jnl');
    expect(byId).not.toContain('ms-named-like-an-id');
  });
});

describe('the other id options, refused naming the option', () => {
  const options: Array<{ session: () => InjectSession; path: () => string; option: string }> = [
    { session: () => editor, path: () => '/dashboard/manuscripts/', option: 'before' },
    { session: () => editor, path: () => '/dashboard/manuscripts/', option: 'after' },
    { session: () => admin, path: () => '/dashboard/webhooks/', option: 'before' },
    { session: () => editor, path: () => '/dashboard/folders/', option: 'page' },
    { session: () => editor, path: () => '/dashboard/groups/', option: 'page' },
    { session: () => editor, path: () => `/dashboard/groups/${group}/`, option: 'page' },
    { session: () => editor, path: () => `/dashboard/groups/${group}/`, option: 'from_end' },
  ];

  it('past their largest, negative or not a number: 400, the option and what it takes said', async () => {
    for (const { session, path, option } of options) {
      for (const value of [...PAST_MAX, ...NEGATIVE, '0', ...NOT_A_NUMBER]) {
        const res = await get(session(), `${path()}?${option}=${encodeURIComponent(value)}`);
        expect(res.statusCode, `${path()} ${option}=${value}`).toBe(400);
        expect(res.body).toMatch(
          new RegExp(
            `The option ${option} in the address, “(<bdi>)?${value.replace(/[.+]/g, '\\$&')}(</bdi>)?”, must be (a whole number, in digits|[\\d,]+ or less|1 or more)\\.`,
          ),
        );
      }
    }
  });

  it('with leading zeros: the number they write', async () => {
    for (const { session, path, option } of options) {
      const res = await get(session(), `${path()}?${option}=0001`);
      expect(res.statusCode, `${path()} ${option}=0001`).not.toBe(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });
});
