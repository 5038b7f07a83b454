-- +goose Up
-- The inference gateway's credits (domain/gateway/credits): the ledger is
-- events; these tables hold what must be shared between processes around
-- it (schema platform: state of platform services that is neither an
-- event nor a read model) and the ledger's read model.

-- The debit write-ahead: the chat path inserts one row per finished
-- request (durable before the response completes); a flusher turns rows
-- into credits.debited events and deletes them in the same transaction, so
-- a debit is always either a row here or an event, never both, never
-- neither. owner is the recording process; another process takes rows
-- whose owner has not flushed them for a while (a crashed process).
CREATE TABLE platform.gateway_pending_debits (
    request_id   text        PRIMARY KEY,
    account_id   text        NOT NULL,
    owner        text        NOT NULL,
    amount_micro bigint      NOT NULL,
    event        jsonb       NOT NULL,
    recorded_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX gateway_pending_debits_owner ON platform.gateway_pending_debits (owner, recorded_at);
CREATE INDEX gateway_pending_debits_age ON platform.gateway_pending_debits (recorded_at);
CREATE INDEX gateway_pending_debits_account ON platform.gateway_pending_debits (account_id);

-- Every request id ever debited (like es.unique_keys, written in the
-- transaction that appends the debit): a request is debited once however
-- often it is recorded, and a refund finds its debit here.
CREATE TABLE platform.gateway_debits (
    request_id   text        PRIMARY KEY,
    account_id   text        NOT NULL,
    amount_micro bigint      NOT NULL,
    period       jsonb,
    stream_id    text        NOT NULL,
    debited_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Requests per hour per account, shared by every process: one counter per
-- account and UTC hour, moved by an atomic upsert that stops at the plan's
-- limit.
CREATE TABLE platform.gateway_request_windows (
    account_id   text        NOT NULL,
    window_start timestamptz NOT NULL,
    count        integer     NOT NULL,
    PRIMARY KEY (account_id, window_start)
);
CREATE INDEX gateway_request_windows_start ON platform.gateway_request_windows (window_start);

-- Read model of projector gateway.credits.v1 (projections/gateway): each
-- account's folded ledger (the balance, its parts, the latest periods), and
-- one usage record per request.
CREATE SCHEMA rm_gateway_credits_v1;

CREATE TABLE rm_gateway_credits_v1.accounts (
    account_id    text   PRIMARY KEY,
    balance_micro bigint NOT NULL,
    state         jsonb  NOT NULL
);

CREATE TABLE rm_gateway_credits_v1.usage (
    request_id        text        PRIMARY KEY,
    account_id        text        NOT NULL,
    key_id            text,
    model             text        NOT NULL,
    upstream          text,
    input_tokens      bigint      NOT NULL,
    output_tokens     bigint      NOT NULL,
    cache_read_tokens bigint      NOT NULL,
    cost_micro        bigint      NOT NULL,
    refunded_micro    bigint      NOT NULL DEFAULT 0,
    status            text        NOT NULL,
    latency_ms        bigint      NOT NULL,
    period_key        text,
    at                timestamptz NOT NULL
);
CREATE INDEX usage_account_at ON rm_gateway_credits_v1.usage (account_id, at DESC, request_id DESC);
CREATE INDEX usage_account_model_at ON rm_gateway_credits_v1.usage (account_id, model, at DESC, request_id DESC);

-- +goose Down
DROP SCHEMA rm_gateway_credits_v1 CASCADE;
DROP TABLE platform.gateway_request_windows;
DROP TABLE platform.gateway_debits;
DROP TABLE platform.gateway_pending_debits;
