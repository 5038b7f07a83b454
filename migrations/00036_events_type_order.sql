-- +goose NO TRANSACTION
-- +goose Up
-- A consumer that handles a few event types (eventstore.SchemaAdapter.Only)
-- finds its next events with one range scan a type, in the consumers' order
-- (transaction_id, position), instead of reading past every other event
-- after its checkpoint: a projector's reads cost what its own events cost,
-- however busy the other types are. Built concurrently: appends go on while
-- a large store is indexed. A build that fails leaves an invalid index
-- behind; drop it (DROP INDEX CONCURRENTLY es.events_type_order) and migrate
-- again.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_type_order ON es.events (event_type, transaction_id, position);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS es.events_type_order;
