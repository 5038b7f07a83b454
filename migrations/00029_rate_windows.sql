-- +goose Up
-- Fixed one-minute windows of the platform's shared rate limiter
-- (commands/ratelimit): every process counts a key's requests in the same
-- row, so a limit holds however many processes serve (ARCHITECTURE.md
-- section 10). Old windows are swept by the limiter.
CREATE TABLE platform.rate_windows (
    key          text        NOT NULL,
    window_start timestamptz NOT NULL,
    count        integer     NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_windows_age ON platform.rate_windows (window_start);

-- +goose Down
DROP TABLE platform.rate_windows;
