-- +goose Up
-- The uses of the platform's sliding-window limits (forgot-password,
-- temporary keys, OAuth client registration, invitations, checkouts):
-- one row a counted use, kept while a window may still see it, so every
-- process counts against one log (commands/ratelimit.Uses).
CREATE TABLE platform.rate_uses (
    key text        NOT NULL,
    at  timestamptz NOT NULL
);
CREATE INDEX rate_uses_key ON platform.rate_uses (key, at);

-- +goose Down
DROP TABLE platform.rate_uses;
