// What a custom field may belong to and hold: apart from the store, so that the CLI offers them as
// choices without loading the database layer (`refmatch --help` stays fast).
export const OWNERS = ['author_from_group', 'folder', 'proposal'] as const;
export type Owner = (typeof OWNERS)[number];

export const DATA_KINDS = ['number', 'str', 'date', 'single_option', 'multi_option'] as const;
export type DataKind = (typeof DATA_KINDS)[number];

/** Each kind as people read it (the dashboard's labels, and the words of the store's messages). */
export const KIND_LABELS: Readonly<Record<DataKind, string>> = {
  number: 'Number',
  str: 'Text',
  date: 'Date',
  single_option: 'One option',
  multi_option: 'Several options',
};
