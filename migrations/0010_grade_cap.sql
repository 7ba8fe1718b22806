ALTER TABLE `grade_locks` ADD `grade_uncapped` text;--> statement-breakpoint
ALTER TABLE `grade_locks` ADD `cap_reason` text;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `grade_uncapped` text;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `cap_reason` text;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `grade_uncapped` text;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `cap_reason` text;