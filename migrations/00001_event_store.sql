-- +goose Up
-- The event store: one table is the source of truth. See docs/architecture.md.
CREATE SCHEMA IF NOT EXISTS es;

-- One row per stream: its type and current version. The append transaction's
-- first write is the version check on this row, which serialises writers of
-- one stream and makes transaction ids grow with stream versions.
CREATE TABLE es.streams (
    stream_id   text        PRIMARY KEY,
    stream_type text        NOT NULL,
    version     integer     NOT NULL CHECK (version > 0),
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Positions are drawn by the append's first statement (so the caller learns
-- them without a RETURNING round trip) or by the column default.
CREATE SEQUENCE es.events_position_seq AS bigint;

CREATE TABLE es.events (
    position       bigint      PRIMARY KEY DEFAULT nextval('es.events_position_seq'),
    transaction_id xid8        NOT NULL DEFAULT pg_current_xact_id(),
    event_id       uuid        NOT NULL UNIQUE,          -- a ULID, stored in 16 bytes
    stream_type    text        NOT NULL,
    stream_id      text        NOT NULL,
    stream_version integer     NOT NULL CHECK (stream_version > 0),
    event_type     text        NOT NULL,
    schema_version integer     NOT NULL CHECK (schema_version > 0),
    payload        jsonb       NOT NULL,
    metadata       jsonb       NOT NULL DEFAULT '{}',
    occurred_at    timestamptz NOT NULL,                  -- business time
    recorded_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (stream_id, stream_version)
);
ALTER SEQUENCE es.events_position_seq OWNED BY es.events.position;

-- Consumers read in (transaction_id, position) order below the snapshot's
-- xmin horizon, with a keyset condition; this index serves that read.
CREATE INDEX events_consumer_order ON es.events (transaction_id, position);

-- At most one notification per transaction: PostgreSQL folds identical
-- notifications raised within one transaction into one.
-- +goose StatementBegin
CREATE FUNCTION es.notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('strata_events', '');
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER events_notify AFTER INSERT ON es.events
    FOR EACH STATEMENT EXECUTE FUNCTION es.notify_events();

-- Set validation: a value claimed in a scope (an email among accounts) is
-- written in the same transaction as the append that claims it.
CREATE TABLE es.unique_keys (
    scope        text        NOT NULL,
    value        text        NOT NULL,
    owner_stream text        NOT NULL,
    claimed_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (scope, value)
);

-- Consumer checkpoints (Watermill's offsets, in our own table): the last
-- (transaction_id, position) a consumer group has applied.
CREATE TABLE es.checkpoints (
    consumer_group                text        PRIMARY KEY,
    offset_acked                  bigint      NOT NULL DEFAULT 0,
    last_processed_transaction_id xid8        NOT NULL DEFAULT '0',
    updated_at                    timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- What each projector is doing, for `strata projections status` and health.
CREATE TABLE es.projector_status (
    name             text        PRIMARY KEY,
    state            text        NOT NULL,
    last_error       text,
    failing_position bigint,
    failing_since    timestamptz,
    retries          integer     NOT NULL DEFAULT 0,
    updated_at       timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- +goose Down
DROP SCHEMA es CASCADE;
