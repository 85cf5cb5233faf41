// Corpus upkeep an operator runs as a job (or with --wait): recomputing author metrics and relinking
// the authors from groups to the corpus. Both are safe to run again: a job claimed again after its
// worker died redoes at most the step it was in.
// Declared with their options; each handler loads what it needs when it runs (see src/cli/registry.ts).
import { defineCommand } from '../infra/cli/command.ts';

export const recomputeMetricsCommand = defineCommand({
  name: 'corpus metrics',
  description: 'Recompute the metrics of the authors queued for it (h-index, citations, academic age)',
  options: [{ flags: '--all', description: 'queue every author first' }],
  queueable: true,
  async run(ctx, args: { all?: boolean }) {
    const { recomputePendingMetrics } = await import('./authors/metrics-refresh.ts');
    // `--all` queues every author (one range of ids); the recompute then takes the queue in chunks,
    // each deleting its queue rows as it commits, so a resumed job continues with what is left.
    if (args.all === true && !ctx.resumed) {
      await ctx.db.query(
        `INSERT INTO author_metrics_pending_ranges (first_author_id, next_author_id)
         SELECT min(id), max(id) + 1 FROM authors HAVING count(*) > 0`,
      );
    }
    const authors = await recomputePendingMetrics(ctx.db);
    return { authors_recomputed: authors };
  },
});

export const relinkCommand = defineCommand({
  name: 'corpus relink',
  description: "Link every authors group's records to the corpus's authors again",
  queueable: true,
  async run(ctx) {
    const { relinkGroupAuthor } = await import('./authors/linking.ts');
    const { rows } = await ctx.db.query<{
      group_id: number;
      client_id: string;
      linked_author_id: number | null;
    }>('SELECT group_id, client_id, linked_author_id FROM group_authors ORDER BY group_id, client_id');
    let changed = 0;
    for (const [i, row] of rows.entries()) {
      ctx.signal?.throwIfAborted();
      const linked = await relinkGroupAuthor(ctx.db, row.group_id, row.client_id);
      if (linked !== row.linked_author_id) changed++;
      if (i % 100 === 99) ctx.progress({ unit: 'group authors', done: i + 1, total: rows.length });
    }
    ctx.progress({ unit: 'group authors', done: rows.length, total: rows.length });
    return { group_authors: rows.length, group_authors_relinked: changed };
  },
});

export const maintenanceCommands = [recomputeMetricsCommand, relinkCommand];
