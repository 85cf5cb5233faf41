-- A user's email is kept lower-cased (src/users/users.ts normalizeEmail): sign-in and the unique
-- index (0099) already took it in any letter case as one account, but it was shown as typed. Those
-- kept before are lowered here; no two can collide, the index being on lower(email) already.
UPDATE users SET email = lower(email) WHERE email <> lower(email);
