-- Names an organization gives its own things are one line of text since round 28
-- (src/infra/one-line-text.ts checkOneLine): a group's name, a custom field's name and each of its
-- options, an API key's label, the organization's name. Names stored before that rule may hold line
-- breaks, tabs, ESC, C1 controls or U+2028/U+2029 ("Bad\r\nX-Injected: 1" was a group's name). They
-- are made what the rule lets through, so that every reader (a page, a file name, a CLI line, a log,
-- a client's form) can rely on one line: each run of such characters becomes one space, and the
-- name is trimmed of spaces at both ends, as the rule trims. A name of nothing else is named after
-- its kind and id ("Group 12"; a key's label becomes none). A cleaned name that another of its scope
-- already has (letter case aside for groups and fields, exactly for a field's options, as their own
-- rules compare) takes " (2)", " (3)", ... as migration 0107 did, shortened to stay within its cap.
-- Ids, records, values (which name options by id) and keys are unchanged. Safe to run again.
DO $$
DECLARE
  r record;
  n integer;
  base text;
  suffix text;
  candidate text;
  -- Every C0 control (PostgreSQL text holds no NUL), DEL, C1, the line and paragraph separators.
  controls constant text := '[\x01-\x1f\x7f-\x9f\u2028\u2029]';
BEGIN
  FOR r IN SELECT id, organization_id, name FROM authors_groups WHERE name ~ controls ORDER BY id LOOP
    base := btrim(regexp_replace(r.name, controls || '+', ' ', 'g'), ' ');
    IF base = '' THEN base := 'Group ' || r.id; END IF;
    candidate := base;
    n := 2;
    WHILE EXISTS (
      SELECT 1 FROM authors_groups
       WHERE organization_id = r.organization_id AND lower(name) = lower(candidate) AND id <> r.id
    ) LOOP
      suffix := ' (' || n || ')';
      candidate := left(base, 200 - char_length(suffix)) || suffix;
      n := n + 1;
    END LOOP;
    UPDATE authors_groups SET name = candidate WHERE id = r.id;
  END LOOP;

  FOR r IN SELECT api_id, organization_id, owner, name FROM custom_fields WHERE name ~ controls
            ORDER BY created_at, api_id LOOP
    base := btrim(regexp_replace(r.name, controls || '+', ' ', 'g'), ' ');
    IF base = '' THEN base := 'Field'; END IF;
    candidate := base;
    n := 2;
    WHILE EXISTS (
      SELECT 1 FROM custom_fields
       WHERE organization_id = r.organization_id AND owner = r.owner AND lower(name) = lower(candidate)
         AND api_id <> r.api_id
    ) LOOP
      suffix := ' (' || n || ')';
      candidate := left(base, 200 - char_length(suffix)) || suffix;
      n := n + 1;
    END LOOP;
    UPDATE custom_fields SET name = candidate WHERE api_id = r.api_id;
  END LOOP;

  FOR r IN SELECT api_id, field, option FROM custom_field_options WHERE option ~ controls
            ORDER BY field, "order", api_id LOOP
    base := btrim(regexp_replace(r.option, controls || '+', ' ', 'g'), ' ');
    IF base = '' THEN base := 'Option'; END IF;
    candidate := base;
    n := 2;
    WHILE EXISTS (
      SELECT 1 FROM custom_field_options WHERE field = r.field AND option = candidate AND api_id <> r.api_id
    ) LOOP
      suffix := ' (' || n || ')';
      candidate := left(base, 500 - char_length(suffix)) || suffix;
      n := n + 1;
    END LOOP;
    UPDATE custom_field_options SET option = candidate WHERE api_id = r.api_id;
  END LOOP;

  UPDATE organizations
     SET name = coalesce(nullif(btrim(regexp_replace(name, controls || '+', ' ', 'g'), ' '), ''),
                         'Organization ' || id)
   WHERE name ~ controls;

  UPDATE api_keys
     SET label = nullif(btrim(regexp_replace(label, controls || '+', ' ', 'g'), ' '), '')
   WHERE label ~ controls;
END $$;
