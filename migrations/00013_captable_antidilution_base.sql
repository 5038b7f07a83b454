-- +goose Up
-- A NARROW_BASED class names the base its weighted average counts
-- (antiDilutionBase); other protections have none (NULL). Classes recorded
-- before the field read as the default, which is what they computed with.
ALTER TABLE rm_captable_v1.share_classes ADD COLUMN anti_dilution_base text;
UPDATE rm_captable_v1.share_classes SET anti_dilution_base = 'OUTSTANDING_PREFERRED'
    WHERE anti_dilution = 'NARROW_BASED';

-- +goose Down
ALTER TABLE rm_captable_v1.share_classes DROP COLUMN anti_dilution_base;
