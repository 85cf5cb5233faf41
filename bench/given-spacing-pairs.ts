// npx tsx bench/given-spacing-pairs.ts: what reading "Wei Nan Zhang" and "Weinan Zhang" as one
// person's names would join in the ACL corpus (../shared/data). Two given names written apart,
// neither hyphenated nor an initial, against the one given name they make written together, with the
// same family name: the pairs of corpus records (by ACL author id) that become compatible, and how
// many of them wrote with a common co-author (most likely one person) or not (a namesake, or one
// person whose works share no one). names.ts makes "Wei-Nan" compatible with both already.
import { loadAclWorks } from './lib/acl-holdout.ts';
import { familyCore, parsePersonName } from '../src/corpus/authors/names.ts';

const works = await loadAclWorks();
const records = new Map<string, { name: string; coauthors: Set<string>; works: number }>();
for (const w of works) {
  for (const a of w.authors) {
    const r = records.get(a.key) ?? { name: a.name, coauthors: new Set<string>(), works: 0 };
    r.works++;
    for (const b of w.authors) if (b.key !== a.key) r.coauthors.add(b.key);
    records.set(a.key, r);
  }
}
// Records by family key and first given name.
const byJoined = new Map<string, string[]>();
const apart: Array<{ key: string; family: string; joined: string }> = [];
for (const [key, r] of records) {
  const p = parsePersonName(r.name);
  if (!p || p.hyphenated) continue;
  const family = familyCore(p);
  if (p.given.length === 1 && p.given[0]!.length > 1) {
    const k = `${family}|${p.given[0]}`;
    byJoined.set(k, [...(byJoined.get(k) ?? []), key]);
  }
  if (p.given.length === 2 && p.given.every((g) => g.length > 1))
    apart.push({ key, family, joined: `${p.given[0]}${p.given[1]}` });
}
let pairs = 0;
let shared = 0;
const names = new Set<string>();
const examples: string[] = [];
for (const a of apart) {
  for (const other of byJoined.get(`${a.family}|${a.joined}`) ?? []) {
    pairs++;
    const x = records.get(a.key)!;
    const y = records.get(other)!;
    const common = [...x.coauthors].some((c) => y.coauthors.has(c));
    if (common) shared++;
    names.add(x.name);
    if (examples.length < 40)
      examples.push(
        `${x.name} (${x.works}) ~ ${y.name} (${y.works})${common ? ' [co-author in common]' : ''}`,
      );
  }
}
console.log(`${records.size} author records; ${apart.length} with two full given names written apart`);
console.log(
  `pairs made compatible: ${pairs} (${names.size} names written apart); with a co-author in common: ${shared}; without: ${pairs - shared}`,
);
for (const e of examples) console.log(`  ${e}`);
