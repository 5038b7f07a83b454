-- +goose Up
-- A transaction that has sent a NOTIFY holds a database-wide lock from its
-- commit until the commit is flushed to disk, which serialised every append's
-- commit behind the previous one's flush. The store now sends one coalesced
-- notification after commit instead (eventstore.Store.RunNotifier).
DROP TRIGGER events_notify ON es.events;
DROP FUNCTION es.notify_events();

-- +goose Down
-- +goose StatementBegin
CREATE FUNCTION es.notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('strata_events', '');
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER events_notify AFTER INSERT ON es.events
    FOR EACH STATEMENT EXECUTE FUNCTION es.notify_events();
