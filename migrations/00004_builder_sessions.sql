-- +goose Up
-- Read model of projector builder.sessions.v1 (projections/foundersessions):
-- the founder sessions of the builder surface, looked up by the SHA-256 of
-- the session cookie.
CREATE SCHEMA rm_builder_sessions_v1;

CREATE TABLE rm_builder_sessions_v1.sessions (
    session_hash  text        PRIMARY KEY,
    session_id    text        NOT NULL UNIQUE,
    user_id       text        NOT NULL,
    email         text        NOT NULL,
    name          text        NOT NULL,
    scope         text        NOT NULL,
    sealed_tokens bytea       NOT NULL,
    signed_in_at  timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);

CREATE INDEX sessions_user ON rm_builder_sessions_v1.sessions (user_id);

-- +goose Down
DROP SCHEMA rm_builder_sessions_v1 CASCADE;
