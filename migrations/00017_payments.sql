-- +goose Up
-- Read model of projector payments.v1 (projections/payments): checkout
-- sessions with their attribution, subscriptions as the provider last
-- described them, and invoices (payment history). No personal data: the
-- payer's email stays sealed in the events.
CREATE SCHEMA rm_payments_v1;

CREATE TABLE rm_payments_v1.checkouts (
    session_id      text        PRIMARY KEY,
    channel         text,
    account_id      text,
    organization_id text,
    product_line    text,
    plan            text,
    billing         text,
    price_id        text,
    amount          bigint,
    currency        text,
    status          text        NOT NULL, -- open, complete, expired
    customer_id     text,
    subscription_id text,
    utm_source      text,
    utm_medium      text,
    utm_campaign    text,
    utm_term        text,
    utm_content     text,
    created_at      timestamptz NOT NULL,
    completed_at    timestamptz,
    expired_at      timestamptz
);
CREATE INDEX checkouts_account ON rm_payments_v1.checkouts (account_id, created_at);
CREATE INDEX checkouts_customer ON rm_payments_v1.checkouts (customer_id);

CREATE TABLE rm_payments_v1.subscriptions (
    subscription_id      text        PRIMARY KEY,
    account_id           text,
    customer_id          text,
    product_line         text,
    plan                 text,
    billing              text,
    price_id             text,
    status               text        NOT NULL,
    last_change          text        NOT NULL,
    current_period_start timestamptz,
    current_period_end   timestamptz,
    cancel_at_period_end boolean     NOT NULL DEFAULT false,
    canceled_at          timestamptz,
    ended_at             timestamptz,
    provider_created     timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL
);
CREATE INDEX subscriptions_account ON rm_payments_v1.subscriptions (account_id);
CREATE INDEX subscriptions_customer ON rm_payments_v1.subscriptions (customer_id);

CREATE TABLE rm_payments_v1.invoices (
    invoice_id           text        PRIMARY KEY,
    number               text,
    subscription_id      text,
    customer_id          text,
    account_id           text,
    product_line         text,
    plan                 text,
    status               text        NOT NULL, -- paid, failed
    amount_due           bigint      NOT NULL,
    amount_paid          bigint      NOT NULL,
    currency             text        NOT NULL,
    period_start         timestamptz,
    period_end           timestamptz,
    billing_reason       text,
    attempt_count        bigint      NOT NULL DEFAULT 0,
    next_payment_attempt timestamptz,
    provider_created     timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL
);
CREATE INDEX invoices_customer ON rm_payments_v1.invoices (customer_id, provider_created);
CREATE INDEX invoices_account ON rm_payments_v1.invoices (account_id, provider_created);
CREATE INDEX invoices_subscription ON rm_payments_v1.invoices (subscription_id);

-- +goose Down
DROP SCHEMA rm_payments_v1 CASCADE;
