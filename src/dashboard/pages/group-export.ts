// A group's records as a CSV file (docs/dashboard.md, "Exports"), in the columns the group's import
// reads (group-import.ts), so that a group exported and imported again, into it or another group,
// holds what it held. Streamed: read a batch of records at a time (the store's
// groupAuthorsInBatches) and written out as read, so that a group of 200,000 records is never held
// whole, nor the event loop for long.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import { groupAuthorsInBatches, requireGroup, type ExportedGroupAuthor } from '../../authors-groups/store.ts';
import { listOwnerCustomFields, type CustomField } from '../../custom-fields/store.ts';
import type { CustomValue } from '../../custom-fields/values.ts';
import { TimeSlicer } from '../../infra/event-loop.ts';
import { RowId } from '../../http/schemas.ts';
import { CSV_BOM, csvDownload, csvFileName, csvLine, fileDate, listCell } from '../csv.ts';
import { dashboardRoute, orgOf } from '../framework.ts';
import { customColumnHeader, RECORD_HEADERS } from './group-import.ts';

const GroupParams = Type.Object({ groupId: RowId() });

/** A custom value as the import reads it back: options by their text, several as a list. */
function customText(field: CustomField, value: CustomValue | undefined): string {
  if (value === undefined || value === null) return '';
  const optionText = (id: string) => field.options?.find((o) => o.api_id === id)?.option ?? id;
  if (Array.isArray(value)) return listCell(value.map(optionText));
  if (field.data_kind === 'single_option') return optionText(String(value));
  return String(value);
}

function recordLine(record: ExportedGroupAuthor, fields: readonly CustomField[]): string {
  return csvLine([
    record.client_id,
    record.name,
    listCell(record.emails),
    listCell(record.orcids),
    listCell(record.articles),
    listCell(record.affiliations),
    ...fields.map((field) => customText(field, record.custom_values[field.api_id])),
  ]);
}

/** The file: its byte order mark and header, then each batch of records as it is read. */
async function* groupCsv(
  ctx: AppContext,
  key: { organizationId: number; groupId: number },
  fields: readonly CustomField[],
): AsyncGenerator<Buffer> {
  yield Buffer.from(
    CSV_BOM + csvLine([...RECORD_HEADERS, ...fields.map((f) => customColumnHeader(f, fields))]),
  );
  const slicer = new TimeSlicer();
  for await (const batch of groupAuthorsInBatches(ctx.db, key)) {
    let lines = '';
    for (const record of batch) lines += recordLine(record, fields);
    yield Buffer.from(lines);
    if (slicer.due) await slicer.pause();
  }
}

export function registerGroupExportPages(scope: FastifyInstance, ctx: AppContext): void {
  // Every role that reads the group's page may take its records out: the file holds what the pages
  // show (docs/dashboard.md, "Exports").
  dashboardRoute(scope, {
    method: 'GET',
    url: '/groups/:groupId/export/',
    action: 'read',
    schema: { params: GroupParams },
    handler: async (request, reply) => {
      const { groupId } = request.params as { groupId: number };
      const organizationId = orgOf(request);
      // Another organization's group, or none, is a 404 page before anything is sent.
      const group = await requireGroup(ctx.db, organizationId, groupId);
      const fields = await listOwnerCustomFields(ctx.db, organizationId, 'author_from_group');
      // A place of the process's and the organization's exports (EXPORTS_IN_FLIGHT*), held until
      // the file is sent or the browser has gone: a group's export reads the database for seconds,
      // and started again and again it was a way to take the database from everyone (503 past it).
      const release = ctx.inFlight.exports.admit(organizationId);
      const file = Readable.from(groupCsv(ctx, { organizationId, groupId }, fields), { objectMode: false });
      file.once('close', release);
      csvDownload(reply, csvFileName(['group', group.name, fileDate()]));
      return reply.send(file);
    },
  });
}
