-- +goose Up
-- The builder's business systems (commands/builder, Systems): read models of
-- the streams builder.systems (builder-systems:<company>), projected inline:
-- written in the transaction that appends each event, after the append, while
-- the company's writers are serialised by a transaction-scoped advisory lock.
-- A 2xx write is therefore seen by the very next request, by anyone, and the
-- next write decides on the record's true state. Nothing else writes them.

-- One row per record: its status (open, closed, deleted), the outcome it was
-- closed with, when it was created and last changed, and the stream version
-- of its last change. Never its fields (those are sealed in the events).
CREATE TABLE platform.builder_system_records (
    company_id     text        NOT NULL,
    system         text        NOT NULL,
    record_id      text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('open', 'closed', 'deleted')),
    outcome        text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL,
    changed_at     timestamptz NOT NULL,
    stream_version integer     NOT NULL,
    PRIMARY KEY (company_id, system, record_id)
);

-- The live company key of each company (a new one replaces the row), found
-- by the SHA-256 of the key a request presents. The key itself is not stored.
CREATE TABLE platform.builder_systems_keys (
    company_id  text        PRIMARY KEY,
    key_id      text        NOT NULL,
    generation  integer     NOT NULL,
    secret_hash text        NOT NULL UNIQUE,
    issued_at   timestamptz NOT NULL
);

-- +goose Down
DROP TABLE platform.builder_systems_keys;
DROP TABLE platform.builder_system_records;
