-- Addresses an account has signed in from. Repeated failures lock an account, and anyone who knows
-- an admin's email could keep them out with ten wrong passwords every quarter of an hour; an address
-- the account has signed in from before is not locked out with it (its own address limit, and the
-- delays, still hold). src/users/login-throttle.ts.
CREATE TABLE IF NOT EXISTS login_known_addresses (
  account text NOT NULL,
  address text NOT NULL,
  signed_in_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account, address)
);

-- A sign-in attempt is written as a failure before its password is checked, and its rows are taken
-- back if it succeeds or is refused unchecked: they need an id.
ALTER TABLE login_failures ADD COLUMN IF NOT EXISTS id bigserial;
