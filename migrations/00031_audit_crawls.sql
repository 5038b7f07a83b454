-- +goose Up
-- Crawls of the agent-readiness audit (projector audit.v1): a crawl's
-- status and figures, and its pages with their scores.
CREATE TABLE rm_audit_v1.crawls (
    crawl_id           uuid        PRIMARY KEY,
    url                text        NOT NULL,
    max_pages          integer     NOT NULL,
    tier               text        NOT NULL,
    status             text        NOT NULL,
    pages_crawled      integer     NOT NULL DEFAULT 0,
    overall_score      double precision,
    dimension_averages jsonb,
    reason             text        NOT NULL DEFAULT '',
    cancel_requested   boolean     NOT NULL DEFAULT false,
    requested_at       timestamptz NOT NULL,
    started_at         timestamptz,
    finished_at        timestamptz
);
CREATE INDEX crawls_active ON rm_audit_v1.crawls (status) WHERE status IN ('queued', 'running');

CREATE TABLE rm_audit_v1.crawl_pages (
    crawl_id uuid        NOT NULL,
    url      text        NOT NULL,
    status   integer     NOT NULL,
    score    integer     NOT NULL,
    checks   jsonb       NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (crawl_id, url)
);

-- +goose Down
DROP TABLE rm_audit_v1.crawl_pages;
DROP TABLE rm_audit_v1.crawls;
