// The organization an email address names by its domain: two researchers writing from one
// institution's domain ("cs.stanford.edu", "med.stanford.edu") share an affiliation, whatever their
// affiliation strings say. Addresses of free mail providers, and alumni forwarding addresses, name no
// organization.

// Free mail providers, by the label before their public suffix ("yahoo" for yahoo.com and
// yahoo.co.uk alike) or by their whole domain.
const FREE_MAIL_NAMES = new Set([
  'gmail',
  'googlemail',
  'yahoo',
  'ymail',
  'rocketmail',
  'hotmail',
  'outlook',
  'live',
  'msn',
  'aol',
  'icloud',
  'me',
  'mac',
  'protonmail',
  'proton',
  'pm',
  'tutanota',
  'fastmail',
  'gmx',
  'yandex',
  'mail',
  'inbox',
  'zoho',
  'qq',
  'foxmail',
  'sina',
  'sohu',
  'aliyun',
  'yeah',
  'naver',
  'daum',
  'hanmail',
  'rediffmail',
  'rambler',
  'seznam',
  'libero',
  'wanadoo',
  'orange',
  'free',
  'laposte',
  'ukr',
  'hey',
]);
const FREE_MAIL_DOMAINS = new Set([
  '163.com',
  '126.com',
  '139.com',
  '189.cn',
  'web.de',
  't-online.de',
  'mail.ru',
]);

// Second-level labels under a country's domain that are not an organization ("ox.ac.uk",
// "unimelb.edu.au", "tsinghua.edu.cn", "u-tokyo.ac.jp").
const PUBLIC_SECOND_LEVEL = new Set([
  'ac',
  'edu',
  'co',
  'com',
  'org',
  'gov',
  'govt',
  'net',
  'or',
  'go',
  'ne',
  'gob',
  'mil',
  'res',
  'sch',
  'nhs',
  'gv',
  'nic',
]);

const ALUMNI = /^alum(ni|nae|nus)?$/;
const RESERVED = /(^|\.)example\.(com|org|net)$|\.(example|test|invalid|localhost)$/;

/**
 * The institution's domain an address is written from ("jane@cs.stanford.edu" → "stanford.edu",
 * "x@eng.ox.ac.uk" → "ox.ac.uk"), or null for a free mail provider, an alumni address, or no address.
 */
export function institutionalDomain(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  const labels = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .split('.');
  if (labels.length < 2 || labels.some((l) => !/^[a-z0-9-]+$/.test(l))) return null;
  const tld = labels.at(-1)!;
  const keep = labels.length >= 3 && tld.length === 2 && PUBLIC_SECOND_LEVEL.has(labels.at(-2)!) ? 3 : 2;
  if (labels.length < keep) return null;
  const domain = labels.slice(-keep).join('.');
  if (FREE_MAIL_DOMAINS.has(domain) || FREE_MAIL_NAMES.has(labels.at(-keep)!)) return null;
  // A public suffix alone ("co.uk"), or a name reserved for examples and tests (RFC 2606).
  if (keep === 2 && tld.length === 2 && PUBLIC_SECOND_LEVEL.has(labels.at(-2)!)) return null;
  if (RESERVED.test(domain)) return null;
  if (labels.slice(0, -keep).some((l) => ALUMNI.test(l))) return null;
  return domain;
}
