-- +goose Up
-- Sign-in throttling (commands/signin), shared by every process: failure
-- counters and the addresses each account has signed in from. Schema
-- platform holds state of platform services that is neither an event nor a
-- read model. Accounts and addresses are kept only as HMAC-SHA256 digests
-- under a key derived from the master key.
CREATE SCHEMA platform;

-- One row per counted subject: a (realm, account, address) pair, a (realm,
-- account) or a (realm, address). failures counts failed (or in-flight)
-- attempts since window_start; the next attempt waits until blocked_until.
CREATE TABLE platform.signin_counters (
    key           bytea       PRIMARY KEY,
    failures      integer     NOT NULL,
    window_start  timestamptz NOT NULL,
    last_failure  timestamptz NOT NULL,
    blocked_until timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);
CREATE INDEX signin_counters_expiry ON platform.signin_counters (expires_at);

-- Addresses an account signed in from successfully (pair digest), which
-- the account-wide ceiling does not slow down.
CREATE TABLE platform.signin_known_addresses (
    pair         bytea       PRIMARY KEY,
    account      bytea       NOT NULL,
    last_success timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX signin_known_addresses_expiry ON platform.signin_known_addresses (expires_at);

-- +goose Down
DROP SCHEMA platform CASCADE;
