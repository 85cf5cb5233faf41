-- A user added by the dashboard's form keeps, for a few minutes, the one-time password sealed with
-- the form's one-time value (src/infra/form-seal.ts), and that value's digest: the same form sent
-- again (a double click, a reload of the answer) shows the password its first send made, where it
-- said the user existed and the password had to be made anew (disable, then enable).
ALTER TABLE users ADD COLUMN IF NOT EXISTS form_nonce text;
ALTER TABLE users ADD COLUMN IF NOT EXISTS form_sealed bytea;
-- When it was sealed: at the add, or at an enable (Enable pressed twice lost its password the same way).
ALTER TABLE users ADD COLUMN IF NOT EXISTS form_sealed_at timestamptz;
