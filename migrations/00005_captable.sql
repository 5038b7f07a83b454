-- +goose Up
-- Read model of projector captable.v1 (projections/captable): companies,
-- their members, stakeholders, share classes with running totals, equity
-- grants with their lifecycle, SAFEs and valuations. Quantities and money are
-- numeric (exact decimals: the domain keeps every stored figure terminating).
CREATE SCHEMA rm_captable_v1;

CREATE TABLE rm_captable_v1.companies (
    company_id  text        PRIMARY KEY,
    name        text        NOT NULL,
    created_by  text        NOT NULL,
    created_at  timestamptz NOT NULL
);

CREATE TABLE rm_captable_v1.members (
    company_id  text        NOT NULL,
    account_id  text        NOT NULL,
    role        text        NOT NULL,
    added_at    timestamptz NOT NULL,
    PRIMARY KEY (company_id, account_id)
);
CREATE INDEX members_account ON rm_captable_v1.members (account_id);

CREATE TABLE rm_captable_v1.stakeholders (
    stakeholder_id text        PRIMARY KEY,
    company_id     text        NOT NULL,
    seq            bigint      NOT NULL,
    name           text        NOT NULL,
    email          text        NOT NULL DEFAULT '',
    type           text        NOT NULL,
    title          text        NOT NULL DEFAULT '',
    removed        boolean     NOT NULL DEFAULT false,
    issued         numeric     NOT NULL DEFAULT 0, -- shares held, preferred as converted
    awards         numeric     NOT NULL DEFAULT 0, -- outstanding options, RSUs, warrants
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE INDEX stakeholders_company ON rm_captable_v1.stakeholders (company_id, seq);
CREATE INDEX stakeholders_holding ON rm_captable_v1.stakeholders (company_id, (issued + awards) DESC, name);

CREATE TABLE rm_captable_v1.share_classes (
    share_class_id         text        PRIMARY KEY,
    company_id             text        NOT NULL,
    seq                    bigint      NOT NULL,
    name                   text        NOT NULL,
    type                   text        NOT NULL,
    total_shares           numeric     NOT NULL,
    price_per_share        numeric     NOT NULL,
    liquidation_preference numeric     NOT NULL,
    conversion_ratio       numeric     NOT NULL,
    participating          boolean     NOT NULL,
    participation_cap      numeric     NOT NULL,
    seniority              int         NOT NULL,
    anti_dilution          text        NOT NULL,
    issued                 numeric     NOT NULL DEFAULT 0,
    used                   numeric     NOT NULL DEFAULT 0,
    outstanding            numeric     NOT NULL DEFAULT 0,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL
);
CREATE INDEX share_classes_company ON rm_captable_v1.share_classes (company_id, seq);

CREATE TABLE rm_captable_v1.grants (
    grant_id                  text        PRIMARY KEY,
    company_id                text        NOT NULL,
    seq                       bigint      NOT NULL,
    grant_number              text        NOT NULL,
    stakeholder_id            text        NOT NULL,
    share_class_id            text        NOT NULL,
    underlying_share_class_id text        NOT NULL DEFAULT '',
    grant_type                text        NOT NULL,
    quantity                  numeric     NOT NULL,
    strike_price              numeric     NOT NULL,
    vesting_schedule          text        NOT NULL,
    vesting_start_date        date        NOT NULL,
    vesting_rounding          text        NOT NULL,
    tranches                  jsonb       NOT NULL DEFAULT '[]',
    grant_date                date        NOT NULL,
    expiration_date           date,
    exercise_window_days      int         NOT NULL,
    notes                     text        NOT NULL DEFAULT '',
    status                    text        NOT NULL,
    accepted_on               date,
    exercised                 numeric     NOT NULL DEFAULT 0,
    forfeited                 numeric     NOT NULL DEFAULT 0,
    expired                   numeric     NOT NULL DEFAULT 0,
    cancelled                 numeric     NOT NULL DEFAULT 0,
    terminated_on             date,
    window_ends               date,
    created_at                timestamptz NOT NULL,
    updated_at                timestamptz NOT NULL
);
CREATE INDEX grants_company ON rm_captable_v1.grants (company_id, seq);
CREATE INDEX grants_stakeholder ON rm_captable_v1.grants (company_id, stakeholder_id);
-- Awards that can lapse: terminated (window) or with an expiration date.
CREATE INDEX grants_lapsing ON rm_captable_v1.grants (company_id)
    WHERE grant_type <> 'RESTRICTED_STOCK' AND (window_ends IS NOT NULL OR expiration_date IS NOT NULL);

CREATE TABLE rm_captable_v1.safes (
    safe_id           text        PRIMARY KEY,
    company_id        text        NOT NULL,
    seq               bigint      NOT NULL,
    investor_id       text        NOT NULL,
    investment_amount numeric     NOT NULL,
    valuation_cap     numeric     NOT NULL,
    discount_rate     numeric     NOT NULL,
    safe_type         text        NOT NULL,
    issue_date        date        NOT NULL,
    notes             text        NOT NULL DEFAULT '',
    elected_safe_id   text,
    elected_terms     jsonb,
    converted         jsonb,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);
CREATE INDEX safes_company ON rm_captable_v1.safes (company_id, seq);

CREATE TABLE rm_captable_v1.valuations (
    valuation_id    text        PRIMARY KEY,
    company_id      text        NOT NULL,
    seq             bigint      NOT NULL,
    valuation_date  date        NOT NULL,
    methodology     text        NOT NULL,
    price_per_share numeric     NOT NULL,
    notes           text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL
);
CREATE INDEX valuations_company ON rm_captable_v1.valuations (company_id, valuation_date DESC, seq DESC);

-- +goose Down
DROP SCHEMA rm_captable_v1 CASCADE;
