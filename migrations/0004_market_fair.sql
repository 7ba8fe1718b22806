ALTER TABLE `graded_rows` ADD `fair_source` text;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `consensus_books` integer;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `thin_consensus` integer;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `outlier_price` integer;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `outlier_book` text;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `outlier_odds` real;