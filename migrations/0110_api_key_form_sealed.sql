-- A key made by a dashboard form is kept, for a few minutes, sealed with the form's one-time value
-- (AES-256-GCM, its key derived from that value, which is never stored): the same form sent again
-- (a double click, whose first answer the browser dropped; a reload) shows the key its first send
-- made, where it showed none and the key had to be revoked (src/infra/form-seal.ts). The
-- form's value itself is now kept as a digest only (SHA-256, hex), so that the sealed copy cannot be
-- opened from the database: the values stored before are replaced by their digests.
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS form_sealed bytea;
UPDATE api_keys SET form_nonce = encode(sha256(convert_to('refmatch form' || chr(10) || form_nonce, 'UTF8')), 'hex')
 WHERE form_nonce IS NOT NULL AND form_nonce !~ '^[0-9a-f]{64}$';
