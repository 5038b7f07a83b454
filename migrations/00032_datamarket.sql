-- +goose Up
-- Data marketplace (domain/datamarket). Schema data_rows holds the rows
-- of every dataset version, one table a version (<dataset>_v<N>),
-- bulk-loaded with COPY by commands/datamarket in the transaction that
-- appends the version's events: rows are never events, and a version's
-- table exists only if its events do. The rest is the read model of
-- projector datamarket.v1 (projections/datamarket): versions with their
-- provenance and counts, and each dataset's current version (the pointer
-- readers follow: one row, switched in one transaction).
CREATE SCHEMA data_rows;

CREATE SCHEMA rm_datamarket_v1;

CREATE TABLE rm_datamarket_v1.versions (
    dataset         text        NOT NULL,
    version         integer     NOT NULL,
    status          text        NOT NULL, -- staged, published, superseded, rejected, retracted, purged
    provenance      jsonb       NOT NULL,
    row_table       text,
    rows_read       bigint      NOT NULL DEFAULT 0,
    rows_loaded     bigint      NOT NULL DEFAULT 0,
    rows_invalid    bigint      NOT NULL DEFAULT 0,
    errors          jsonb       NOT NULL DEFAULT '[]',
    ignored_columns jsonb       NOT NULL DEFAULT '[]',
    facets          jsonb       NOT NULL DEFAULT '[]',
    reason          text,
    staged_at       timestamptz NOT NULL,
    published_at    timestamptz,
    finished_at     timestamptz,
    purged_at       timestamptz,
    PRIMARY KEY (dataset, version)
);

CREATE TABLE rm_datamarket_v1.current (
    dataset      text        PRIMARY KEY,
    version      integer     NOT NULL,
    row_table    text        NOT NULL,
    rows_loaded  bigint      NOT NULL,
    facets       jsonb       NOT NULL,
    published_at timestamptz NOT NULL,
    -- when readers were switched to this version (a publication, or a
    -- retraction that moved them back): the data's Last-Modified
    switched_at  timestamptz NOT NULL
);

-- +goose Down
DROP SCHEMA rm_datamarket_v1 CASCADE;
DROP SCHEMA data_rows CASCADE;
