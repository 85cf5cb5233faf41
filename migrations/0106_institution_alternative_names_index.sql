-- The conflict check looks up the institutions a manuscript's stated affiliation names by one of their
-- other names ("MIT", "ETH Zürich": OpenAlex's acronyms and alternatives) at every upload.
CREATE INDEX IF NOT EXISTS institutions_alternative_names_idx ON institutions USING gin (alternative_names);
