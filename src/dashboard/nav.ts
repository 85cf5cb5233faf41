// The dashboard's navigation, in order. An entry shows to the roles that may perform its action.
import type { Action } from '../users/roles.ts';

export interface NavEntry {
  href: string;
  label: string;
  action: Action;
  /**
   * What the page is for, said under its link on the home page: a new editor met a list of names
   * ("Folders", "Custom fields") and had to open each to learn what it held.
   */
  summary: string;
}

export const NAV: readonly NavEntry[] = [
  { href: '/dashboard/', label: 'Home', action: 'read', summary: 'This page.' },
  {
    href: '/dashboard/settings/',
    label: 'Settings',
    action: 'read',
    summary:
      'What every upload answers: parsed or supplied data first, whether candidates with a conflict or without an email are included, how many candidates.',
  },
  {
    href: '/dashboard/api-keys/',
    label: 'API keys',
    action: 'api_keys_manage',
    summary:
      'The keys your editorial systems call the API with: create one, see when each was last used, revoke.',
  },
  {
    href: '/dashboard/users/',
    label: 'Users',
    action: 'users_manage',
    summary: 'Who signs in to this dashboard, and with which role: add people, change roles, disable.',
  },
  {
    href: '/dashboard/custom-fields/',
    label: 'Custom fields',
    action: 'read',
    summary:
      "Your organization's own fields on authors of groups, folders and manuscripts, and their options.",
  },
  {
    href: '/dashboard/groups/',
    label: 'Authors groups',
    action: 'read',
    summary:
      'Lists of people (a reviewer pool, a board), each record linked to an author of the corpus; added one by one or imported from CSV. A folder can limit or boost candidates to them.',
  },
  {
    href: '/dashboard/folders/',
    label: 'Folders',
    action: 'read',
    summary:
      'The journals or sections manuscripts are uploaded to: the authors groups that shape their candidates, their custom values, their linked journals.',
  },
  {
    href: '/dashboard/manuscripts/',
    label: 'Manuscripts',
    action: 'read',
    summary:
      'The uploaded manuscripts: their candidate referees, why each is there and any conflict; referees marked; recommended journals.',
  },
  {
    href: '/dashboard/webhooks/',
    label: 'Webhooks',
    action: 'webhooks_manage',
    summary:
      'Where refmatch sends its events (a referee marked): the address, the signing secret, what was delivered.',
  },
];
