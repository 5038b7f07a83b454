-- +goose Up
-- The builder's nightly loop (commands/builder, Nightly): the companies
-- enrolled, with the window the dispatcher needs, projected inline from
-- builder.nightly_enrolled in the transaction that appends it. The
-- dispatcher (job builder.nightly.dispatch, every 15 minutes) reads it to
-- enqueue each company's run while its window is open.
CREATE TABLE platform.builder_nightly_enrollments (
    company_id     text        PRIMARY KEY,
    time_zone      text        NOT NULL,
    window_start   text        NOT NULL,
    window_end     text        NOT NULL,
    stream_version integer     NOT NULL,
    enrolled_at    timestamptz NOT NULL
);

-- +goose Down
DROP TABLE platform.builder_nightly_enrollments;
