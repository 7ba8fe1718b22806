CREATE TABLE `api_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_user` ON `api_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `closing_prices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sport` text NOT NULL,
	`event_id` text NOT NULL,
	`player_key` text NOT NULL,
	`stat_type` text NOT NULL,
	`side` text NOT NULL,
	`line` real NOT NULL,
	`price` real,
	`fair_prob` real,
	`book` text,
	`captured_at` text NOT NULL,
	`commence_time` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `closing_prices_key` ON `closing_prices` (`event_id`,`player_key`,`stat_type`,`side`,`line`);--> statement-breakpoint
CREATE TABLE `grade_locks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sport` text NOT NULL,
	`event_id` text NOT NULL,
	`player_key` text NOT NULL,
	`stat_type` text NOT NULL,
	`line` real NOT NULL,
	`side` text NOT NULL,
	`grade` text,
	`projection` real,
	`p_win` real,
	`model_odds` real,
	`archetype` text,
	`graded_at` text NOT NULL,
	`snapshot_id` integer,
	`model_detail` text,
	FOREIGN KEY (`snapshot_id`) REFERENCES `snapshots`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `grade_locks_key` ON `grade_locks` (`event_id`,`player_key`,`stat_type`,`line`,`side`);--> statement-breakpoint
CREATE TABLE `graded_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`snapshot_id` integer NOT NULL,
	`sport` text NOT NULL,
	`event_id` text NOT NULL,
	`commence_time` text NOT NULL,
	`home_team` text NOT NULL,
	`away_team` text NOT NULL,
	`player` text NOT NULL,
	`player_key` text NOT NULL,
	`team` text,
	`opponent` text,
	`stat_type` text NOT NULL,
	`line` real NOT NULL,
	`side` text NOT NULL,
	`grade` text,
	`insufficient_data` integer NOT NULL,
	`refusal_reason` text,
	`projection` real,
	`book` text,
	`over_odds` real,
	`under_odds` real,
	`book_odds` real,
	`fair_odds` real,
	`fair_prob` real,
	`overround` real,
	`devig_method` text,
	`model_odds` real,
	`p_win` real,
	`ev_pct` real,
	`value` real,
	`takeable` integer,
	`archetype` text,
	`graded_at` text NOT NULL,
	`previous_line` real,
	`line_delta` real,
	`line_direction` text,
	`lineup_status` text,
	`batting_slot` integer,
	`injury_status` text,
	`model_detail` text,
	FOREIGN KEY (`snapshot_id`) REFERENCES `snapshots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `graded_rows_snapshot_key` ON `graded_rows` (`snapshot_id`,`event_id`,`player_key`,`stat_type`,`line`,`side`);--> statement-breakpoint
CREATE INDEX `graded_rows_lookup` ON `graded_rows` (`sport`,`player_key`,`stat_type`,`line`,`side`);--> statement-breakpoint
CREATE TABLE `kv_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL,
	`expires_at` text
);
--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`source` text NOT NULL,
	`sport` text NOT NULL,
	`event_id` text NOT NULL,
	`commence_time` text NOT NULL,
	`game_date` text NOT NULL,
	`player` text NOT NULL,
	`player_key` text NOT NULL,
	`team` text,
	`opponent` text,
	`stat_type` text NOT NULL,
	`line` real NOT NULL,
	`side` text NOT NULL,
	`grade` text,
	`projection` real,
	`p_win` real,
	`book` text,
	`locked_price` real,
	`locked_fair_prob` real,
	`locked_at` text NOT NULL,
	`closing_line` real,
	`closing_price` real,
	`closing_fair_prob` real,
	`closing_captured_at` text,
	`clv` real,
	`clv_line` real,
	`clv_verdict` text,
	`outcome` text NOT NULL,
	`actual_value` real,
	`settled_at` text,
	`revised_from_grade` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_key` ON `ledger_entries` (coalesce(`user_id`, 0),`event_id`,`player_key`,`stat_type`,`line`,`side`);--> statement-breakpoint
CREATE INDEX `ledger_entries_pending` ON `ledger_entries` (`outcome`,`sport`,`game_date`);--> statement-breakpoint
CREATE INDEX `ledger_entries_date` ON `ledger_entries` (`game_date`);--> statement-breakpoint
CREATE TABLE `pipeline_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`sport` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`status` text NOT NULL,
	`slate_date` text,
	`events_count` integer,
	`graded_count` integer,
	`refused_count` integer,
	`dropped_count` integer,
	`settled_count` integer,
	`credits_used` integer,
	`credits_remaining` integer,
	`message` text,
	`details` text
);
--> statement-breakpoint
CREATE INDEX `pipeline_runs_kind_sport_started` ON `pipeline_runs` (`kind`,`sport`,`started_at`);--> statement-breakpoint
CREATE TABLE `player_game_stats` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sport` text NOT NULL,
	`player_key` text NOT NULL,
	`player_name` text NOT NULL,
	`team` text,
	`opponent` text,
	`date` text NOT NULL,
	`game_key` text NOT NULL,
	`minutes` real,
	`stats` text NOT NULL,
	`extras` text NOT NULL,
	`source` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `player_game_stats_key` ON `player_game_stats` (`sport`,`player_key`,`date`,`game_key`);--> statement-breakpoint
CREATE INDEX `player_game_stats_player` ON `player_game_stats` (`sport`,`player_key`,`date`);--> statement-breakpoint
CREATE TABLE `preferences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`sports` text,
	`books` text,
	`bankroll_limit` real,
	`onboarding_complete` integer DEFAULT false NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `snapshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sport` text NOT NULL,
	`run_id` integer,
	`taken_at` text NOT NULL,
	`slate_date` text NOT NULL,
	`graded_count` integer NOT NULL,
	`row_count` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `pipeline_runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `snapshots_sport_taken` ON `snapshots` (`sport`,`taken_at`);--> statement-breakpoint
CREATE TABLE `ticker_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`sport` text,
	`created_at` text NOT NULL,
	`text` text NOT NULL,
	`run_id` integer,
	`expires_at` text,
	`payload` text,
	FOREIGN KEY (`run_id`) REFERENCES `pipeline_runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ticker_events_created` ON `ticker_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `usage_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject` text NOT NULL,
	`kind` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `usage_events_subject` ON `usage_events` (`subject`,`kind`,`at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`tier` text NOT NULL,
	`created_at` text NOT NULL,
	`founder_pricing` integer DEFAULT false NOT NULL,
	`subscription_status` text,
	`grace_until` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);