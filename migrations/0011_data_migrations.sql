CREATE TABLE `data_migrations` (
	`id` text PRIMARY KEY NOT NULL
);
