// The dashboard's navigation, in order. An entry shows to the roles that may perform its action.
import type { Action } from '../users/roles.ts';

export interface NavEntry {
  href: string;
  label: string;
  action: Action;
}

export const NAV: readonly NavEntry[] = [
  { href: '/dashboard/', label: 'Home', action: 'read' },
  { href: '/dashboard/settings/', label: 'Settings', action: 'read' },
  { href: '/dashboard/api-keys/', label: 'API keys', action: 'api_keys_manage' },
  { href: '/dashboard/users/', label: 'Users', action: 'users_manage' },
  { href: '/dashboard/custom-fields/', label: 'Custom fields', action: 'read' },
  { href: '/dashboard/groups/', label: 'Authors groups', action: 'read' },
  { href: '/dashboard/folders/', label: 'Folders', action: 'read' },
  { href: '/dashboard/manuscripts/', label: 'Manuscripts', action: 'read' },
  { href: '/dashboard/webhooks/', label: 'Webhooks', action: 'webhooks_manage' },
];
