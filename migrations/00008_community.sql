-- +goose Up
-- Read model of projector community.v1 (projections/community): events with
-- their RSVP counts (kept by the projector, never counted per request),
-- RSVPs, comments and the hashes of calendar feed tokens.
CREATE SCHEMA rm_community_v1;

CREATE TABLE rm_community_v1.events (
    event_id         uuid        PRIMARY KEY,
    tenant_id        text        NOT NULL,
    creator_id       text        NOT NULL,
    title            text        NOT NULL,
    description      text,
    start_time       timestamptz NOT NULL,
    end_time         timestamptz,
    location         text,
    event_type       text        NOT NULL,
    capacity         integer,
    group_id         text,
    url              text,
    waitlist         boolean     NOT NULL DEFAULT false,
    status           text        NOT NULL,
    sequence         integer     NOT NULL DEFAULT 0,
    going_count      integer     NOT NULL DEFAULT 0,
    interested_count integer     NOT NULL DEFAULT 0,
    not_going_count  integer     NOT NULL DEFAULT 0,
    waitlisted_count integer     NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX events_tenant_start ON rm_community_v1.events (tenant_id, start_time, event_id);
CREATE INDEX events_tenant_creator ON rm_community_v1.events (tenant_id, creator_id, start_time, event_id);
CREATE INDEX events_tenant_group ON rm_community_v1.events (tenant_id, group_id, start_time, event_id);
CREATE INDEX events_browse_going ON rm_community_v1.events (tenant_id, going_count, start_time, event_id)
    WHERE status = 'scheduled';
CREATE INDEX events_browse_going_desc ON rm_community_v1.events (tenant_id, going_count DESC, start_time, event_id)
    WHERE status = 'scheduled';

-- How many events each tenant has per start day (UTC), status and type, so
-- a list's total is a sum over days plus a count within today, not a count
-- of every matching row.
CREATE TABLE rm_community_v1.event_days (
    tenant_id  text    NOT NULL,
    day        date    NOT NULL,
    status     text    NOT NULL,
    event_type text    NOT NULL,
    n          integer NOT NULL,
    PRIMARY KEY (tenant_id, day, status, event_type)
);

CREATE TABLE rm_community_v1.rsvps (
    rsvp_id          uuid        PRIMARY KEY,
    event_id         uuid        NOT NULL,
    tenant_id        text        NOT NULL,
    user_id          text        NOT NULL,
    status           text        NOT NULL,
    response_message text,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
CREATE UNIQUE INDEX rsvps_event_user ON rm_community_v1.rsvps (event_id, user_id);
CREATE INDEX rsvps_event_created ON rm_community_v1.rsvps (event_id, created_at, rsvp_id);
CREATE INDEX rsvps_user ON rm_community_v1.rsvps (user_id, tenant_id);

CREATE TABLE rm_community_v1.comments (
    comment_id   uuid        PRIMARY KEY,
    tenant_id    text        NOT NULL,
    user_id      text        NOT NULL,
    content_type text        NOT NULL,
    content_id   bigint      NOT NULL,
    comment      text        NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz
);
CREATE INDEX comments_content ON rm_community_v1.comments (content_type, content_id, created_at DESC, comment_id DESC);

CREATE TABLE rm_community_v1.calendar_feeds (
    token_hash text        PRIMARY KEY,
    feed_id    uuid        NOT NULL UNIQUE,
    tenant_id  text        NOT NULL,
    user_id    text        NOT NULL,
    issued_at  timestamptz NOT NULL
);

-- +goose Down
DROP SCHEMA rm_community_v1 CASCADE;
