-- +goose Up
-- The live cap table subtracts awards whose exercise window or term has
-- lapsed without a recorded expiry: index them by the day they lapse, so
-- the query reads only those (not every award with a date). Measured by
-- `strata bench captable` (docs/benchmarks.md).
CREATE INDEX grants_lapse_due ON rm_captable_v1.grants (company_id, (least(window_ends, expiration_date)))
    WHERE grant_type <> 'RESTRICTED_STOCK' AND (window_ends IS NOT NULL OR expiration_date IS NOT NULL)
      AND quantity - exercised - forfeited - expired - cancelled > 0;
DROP INDEX rm_captable_v1.grants_lapsing;

-- +goose Down
CREATE INDEX grants_lapsing ON rm_captable_v1.grants (company_id)
    WHERE grant_type <> 'RESTRICTED_STOCK' AND (window_ends IS NOT NULL OR expiration_date IS NOT NULL);
DROP INDEX rm_captable_v1.grants_lapse_due;
