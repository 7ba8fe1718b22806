ALTER TABLE "ledger_entries" ADD COLUMN "close_books" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "pinnacle_closing_fair_prob" double precision;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "pinnacle_close_lead_minutes" double precision;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "pinnacle_clv" double precision;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "pinnacle_clv_pct" double precision;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "pinnacle_clv_verdict" text;