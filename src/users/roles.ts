// Roles and what each may do: the ONE permission table. Every dashboard route names the action it
// performs and the dashboard checks it against this table before the handler runs (docs/dashboard.md).

export const ROLES = ['integrations_admin', 'account_manager', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export const ACTIONS = [
  /** See the organization's pages that hold no secret: settings, folders, custom fields, groups, manuscripts. */
  'read',
  /** Change one's own password (every role). */
  'own_password',
  'settings_write',
  'api_keys_manage',
  'users_manage',
  'webhooks_manage',
  'journals_link',
  'folder_settings_write',
  'custom_fields_write',
  'authors_groups_write',
  'candidates_mark',
  /** Set and clear a manuscript's custom field values (a folder's are its settings). */
  'manuscript_values_write',
  /** Upload a manuscript from the dashboard's form (the API's upload, as the organization). */
  'manuscripts_upload',
] as const;
export type Action = (typeof ACTIONS)[number];

const EVERYONE: readonly Action[] = ['read', 'own_password'];

export const PERMISSIONS: Readonly<Record<Role, readonly Action[]>> = {
  integrations_admin: [...EVERYONE, 'settings_write', 'api_keys_manage', 'users_manage', 'webhooks_manage'],
  account_manager: [...EVERYONE, 'journals_link'],
  editor: [
    ...EVERYONE,
    'folder_settings_write',
    'custom_fields_write',
    'authors_groups_write',
    'candidates_mark',
    'manuscript_values_write',
    'manuscripts_upload',
  ],
  viewer: EVERYONE,
};

export function can(role: Role, action: Action): boolean {
  return PERMISSIONS[role].includes(action);
}

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  integrations_admin: 'Integrations admin',
  account_manager: 'Account manager',
  editor: 'Editor',
  viewer: 'Viewer',
};
