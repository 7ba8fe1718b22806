ALTER TABLE `closing_prices` ADD `close_lead_minutes` real;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `close_lead_minutes` real;--> statement-breakpoint
-- Backfill (issue 33): how close each stored close was, from the two stored times, in whole seconds as
-- src/domain/close-lead.ts computes it; a capture not strictly before the start (or a time that does not parse) stays null.
UPDATE `closing_prices` SET `close_lead_minutes` = CASE
    WHEN round((julianday(`commence_time`) - julianday(`captured_at`)) * 86400) > 0
    THEN round((julianday(`commence_time`) - julianday(`captured_at`)) * 86400) / 60.0 END;
--> statement-breakpoint
UPDATE `ledger_entries` SET `close_lead_minutes` = CASE
    WHEN round((julianday(`commence_time`) - julianday(`closing_captured_at`)) * 86400) > 0
    THEN round((julianday(`commence_time`) - julianday(`closing_captured_at`)) * 86400) / 60.0 END
WHERE `closing_captured_at` IS NOT NULL;
