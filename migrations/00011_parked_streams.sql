-- +goose Up
-- Streams a projector has parked: one of their events could not be applied,
-- so that stream's later events wait (in order) while every other stream is
-- applied. position/transaction_id are the first event held; retry replays
-- the held events from there, skip records a projections.event_skipped event
-- and goes on after it. Shared by every process (docs/architecture.md).
CREATE TABLE es.parked_streams (
    projector      text        NOT NULL,
    stream_id      text        NOT NULL,
    stream_type    text        NOT NULL,
    transaction_id xid8        NOT NULL,
    position       bigint      NOT NULL,
    event_id       text        NOT NULL,
    event_type     text        NOT NULL,
    error          text        NOT NULL,
    parked_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    retries        integer     NOT NULL DEFAULT 0,
    retried_at     timestamptz,
    PRIMARY KEY (projector, stream_id)
);

-- +goose Down
DROP TABLE es.parked_streams;
