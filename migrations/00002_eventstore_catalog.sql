-- +goose Up
-- Read model of projector eventstore.catalog.v1 (projections/catalog).
-- Read-model tables use no foreign keys and no serial columns, so that a
-- rebuild can clone them with CREATE TABLE ... (LIKE ... INCLUDING ALL).
CREATE SCHEMA rm_eventstore_catalog_v1;

CREATE TABLE rm_eventstore_catalog_v1.event_types (
    event_type       text        PRIMARY KEY,
    events           bigint      NOT NULL,
    last_position    bigint      NOT NULL,
    last_recorded_at timestamptz NOT NULL
);

CREATE TABLE rm_eventstore_catalog_v1.stream_types (
    stream_type text   PRIMARY KEY,
    streams     bigint NOT NULL,
    events      bigint NOT NULL
);

-- +goose Down
DROP SCHEMA rm_eventstore_catalog_v1 CASCADE;
