-- Webhooks (docs/webhooks.md): one endpoint per organization, and the outbox of events to deliver.
-- An event is written in the same transaction as what it reports (a mark, an upload), so it is
-- delivered if and only if that committed; the worker claims due rows with FOR UPDATE SKIP LOCKED.

CREATE TABLE IF NOT EXISTS webhooks (
  organization_id integer PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  url text NOT NULL CHECK (url ~ '^https?://' AND char_length(url) <= 2000),
  -- Kept as given: it signs every body (HMAC-SHA256), so it cannot be stored hashed.
  secret text NOT NULL CHECK (char_length(secret) BETWEEN 16 AND 200),
  enabled boolean NOT NULL DEFAULT true,
  -- The last `order` given to an event of the organization; the row lock taken to increase it
  -- makes the orders increase in commit order.
  last_order bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS webhook_outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  "order" bigint NOT NULL,
  event text NOT NULL CHECK (event IN ('mark_as_proposal_referee', 'proposal_uploaded')),
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Set while a worker is sending it: another worker leaves it alone until then (a worker that died
  -- mid-delivery leaves a lease that simply runs out).
  locked_until timestamptz,
  last_error text,
  last_status integer,
  delivered_at timestamptz,
  UNIQUE (organization_id, "order")
);
CREATE INDEX IF NOT EXISTS webhook_outbox_due_idx ON webhook_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_outbox_log_idx ON webhook_outbox (organization_id, id DESC);
