CREATE TABLE `run_locks` (
	`name` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`acquired_at` text NOT NULL,
	`lease_until` text NOT NULL
);
