-- +goose Up
-- Read model of projector audit.v1 (projections/audit): stored full
-- audits (the scan with its findings; the findings are served once the
-- report is unlocked) and leads (without their addresses, which stay
-- sealed in the events).
CREATE SCHEMA rm_audit_v1;

CREATE TABLE rm_audit_v1.reports (
    report_id  uuid        PRIMARY KEY,
    url        text        NOT NULL,
    host       text        NOT NULL,
    industry   text        NOT NULL,
    score      integer     NOT NULL,
    grade      text        NOT NULL,
    scan       jsonb       NOT NULL,
    requests   integer     NOT NULL,
    unlocked   boolean     NOT NULL DEFAULT false,
    scanned_at timestamptz NOT NULL,
    stored_at  timestamptz NOT NULL
);
-- The benchmark reads the latest report of each host in an industry.
CREATE INDEX reports_industry ON rm_audit_v1.reports (industry, host, stored_at DESC);

CREATE TABLE rm_audit_v1.leads (
    lead_id           uuid        PRIMARY KEY,
    kind              text        NOT NULL, -- form or unlock
    url               text        NOT NULL,
    score             integer,
    findings_count    integer,
    dimensions_failed text[]      NOT NULL DEFAULT '{}',
    package_interest  text        NOT NULL DEFAULT '',
    utm_source        text        NOT NULL DEFAULT '',
    utm_medium        text        NOT NULL DEFAULT '',
    utm_campaign      text        NOT NULL DEFAULT '',
    report_id         uuid,
    at                timestamptz NOT NULL
);

-- +goose Down
DROP SCHEMA rm_audit_v1 CASCADE;
