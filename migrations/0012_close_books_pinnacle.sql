ALTER TABLE `ledger_entries` ADD `close_books` text;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `pinnacle_closing_fair_prob` real;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `pinnacle_close_lead_minutes` real;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `pinnacle_clv` real;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `pinnacle_clv_pct` real;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `pinnacle_clv_verdict` text;