-- +goose Up
-- Documents and financial reports of the cap table (projector captable.v1).
-- The rows describe files kept in the content-addressed blob store under the
-- data directory; sha256 names the bytes, which never enter the database.
CREATE TABLE rm_captable_v1.documents (
    document_id    text        PRIMARY KEY,
    company_id     text        NOT NULL,
    seq            bigint      NOT NULL,
    name           text        NOT NULL,
    type           text        NOT NULL,
    content_type   text        NOT NULL,
    size           bigint      NOT NULL,
    sha256         text        NOT NULL,
    stakeholder_id text        NOT NULL DEFAULT '',
    grant_id       text        NOT NULL DEFAULT '',
    uploaded_by    text        NOT NULL,
    deleted        boolean     NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL,
    deleted_at     timestamptz
);
CREATE INDEX documents_company ON rm_captable_v1.documents (company_id, seq) WHERE NOT deleted;

CREATE TABLE rm_captable_v1.financial_reports (
    report_id        text        PRIMARY KEY,
    company_id       text        NOT NULL,
    seq              bigint      NOT NULL,
    type             text        NOT NULL,
    format           text        NOT NULL,
    as_of_date       date        NOT NULL,
    based_on_version bigint      NOT NULL,
    content_type     text        NOT NULL,
    size             bigint      NOT NULL,
    sha256           text        NOT NULL,
    filename         text        NOT NULL,
    generated_by     text        NOT NULL,
    created_at       timestamptz NOT NULL
);
CREATE INDEX financial_reports_company ON rm_captable_v1.financial_reports (company_id, seq);

-- +goose Down
DROP TABLE rm_captable_v1.financial_reports;
DROP TABLE rm_captable_v1.documents;
