-- +goose Up
-- The requests-per-hour limiter leases counts (commands/gateway,
-- RateLimiter): a process takes a few of an hour's requests from the
-- window's row at once and admits them from memory. count is now the
-- requests leased (used, or held by a running process); last_grant is what
-- the last lease took (its statement returns it); limit_per_hour the plan's
-- limit that lease was taken under.
ALTER TABLE platform.gateway_request_windows
    ADD COLUMN last_grant     integer NOT NULL DEFAULT 0,
    ADD COLUMN limit_per_hour integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE platform.gateway_request_windows
    DROP COLUMN last_grant,
    DROP COLUMN limit_per_hour;
