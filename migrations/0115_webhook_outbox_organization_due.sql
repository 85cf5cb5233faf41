-- Each organization's due events in the order they are claimed (src/webhooks/store.ts,
-- claimDueEvents): the first of each is found by one probe of this index an enabled webhook. The
-- claim sorted every pending event of every organization (DISTINCT ON) at each round, a send's end
-- and each event written: 100,000 pending events behind a slow receiver held PGlite's thread ~105 ms
-- a claim.
CREATE INDEX IF NOT EXISTS webhook_outbox_organization_due_idx
  ON webhook_outbox (organization_id, next_attempt_at, id) WHERE status = 'pending';
