ALTER TABLE `grade_locks` ADD `locked_book` text;--> statement-breakpoint
ALTER TABLE `grade_locks` ADD `locked_odds` real;--> statement-breakpoint
ALTER TABLE `grade_locks` ADD `locked_fair_prob` real;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `locked_book` text;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `locked_odds` real;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `locked_fair_prob` real;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `ev_now_pct` real;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `edge_now` text;--> statement-breakpoint
ALTER TABLE `graded_rows` ADD `projection_agrees` integer;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `locked_fair_source` text;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `closing_fair_source` text;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `close_method` text;--> statement-breakpoint
ALTER TABLE `ledger_entries` ADD `clv_pct` real;--> statement-breakpoint
-- Backfill (issue 25): a grade's price is the graded row of the snapshot that locked it.
UPDATE `grade_locks` SET `locked_book` = g.`book`, `locked_odds` = g.`book_odds`, `locked_fair_prob` = g.`fair_prob`
FROM `graded_rows` g
WHERE g.`snapshot_id` = `grade_locks`.`snapshot_id` AND g.`event_id` = `grade_locks`.`event_id` AND g.`player_key` = `grade_locks`.`player_key`
  AND g.`stat_type` = `grade_locks`.`stat_type` AND g.`line` = `grade_locks`.`line` AND g.`side` = `grade_locks`.`side` AND `grade_locks`.`grade` IS NOT NULL;
--> statement-breakpoint
UPDATE `graded_rows` SET `locked_book` = l.`locked_book`, `locked_odds` = l.`locked_odds`, `locked_fair_prob` = l.`locked_fair_prob`
FROM `grade_locks` l
WHERE l.`event_id` = `graded_rows`.`event_id` AND l.`player_key` = `graded_rows`.`player_key` AND l.`stat_type` = `graded_rows`.`stat_type`
  AND l.`line` = `graded_rows`.`line` AND l.`side` = `graded_rows`.`side` AND `graded_rows`.`grade` IS NOT NULL;
--> statement-breakpoint
-- The EV now, by the grade's rule: the market's fair alone wherever the grade pooled no model (every fitted weight so far).
UPDATE `graded_rows` SET `ev_now_pct` = 100.0 * (`fair_prob` * (CASE WHEN `book_odds` > 0 THEN 1 + `book_odds` / 100.0 ELSE 1 + 100.0 / (-`book_odds`) END) - 1)
WHERE `grade` IS NOT NULL AND `fair_prob` > 0 AND `fair_prob` < 1 AND (`book_odds` >= 100 OR `book_odds` <= -100)
  AND json_extract(`model_detail`, '$.nudgeWeight') = 0;
--> statement-breakpoint
UPDATE `graded_rows` SET `edge_now` = CASE
    WHEN `grade` NOT IN ('A+', 'A', 'B') OR `ev_now_pct` IS NULL THEN NULL
    WHEN `ev_now_pct` >= (CASE `grade` WHEN 'A+' THEN 5 WHEN 'A' THEN 2 ELSE 0 END) THEN 'holds'
    WHEN `ev_now_pct` > 0 THEN 'reduced' ELSE 'gone' END,
  `projection_agrees` = CASE WHEN `projection` IS NULL OR `projection` = `line` THEN NULL WHEN `side` = 'over' THEN `projection` > `line` ELSE `projection` < `line` END;
--> statement-breakpoint
-- Public entries take the price their grade was computed on (an entry first picked in a later snapshot carried that snapshot's price).
UPDATE `ledger_entries` SET `book` = l.`locked_book`, `locked_price` = l.`locked_odds`, `locked_fair_prob` = l.`locked_fair_prob`,
  `locked_fair_source` = json_extract(l.`model_detail`, '$.fairSource')
FROM `grade_locks` l
WHERE `ledger_entries`.`source` = 'pipeline' AND l.`locked_book` IS NOT NULL AND l.`event_id` = `ledger_entries`.`event_id`
  AND l.`player_key` = `ledger_entries`.`player_key` AND l.`stat_type` = `ledger_entries`.`stat_type` AND l.`line` = `ledger_entries`.`line` AND l.`side` = `ledger_entries`.`side`;
--> statement-breakpoint
-- A close is re-read on the one yardstick where the closing snapshot kept a row at the locked line
-- judged against the locked book (its fair_prob is then the market's fair by the lock's rule). The
-- other side's row first, then the same side's, which wins where both exist.
UPDATE `ledger_entries` SET `closing_fair_prob` = 1 - g.`fair_prob`, `closing_fair_source` = g.`fair_source`, `close_method` = 'one_yardstick'
FROM `graded_rows` g JOIN `snapshots` s ON s.`id` = g.`snapshot_id`
WHERE `ledger_entries`.`closing_captured_at` IS NOT NULL AND `ledger_entries`.`closing_line` = `ledger_entries`.`line`
  AND s.`sport` = `ledger_entries`.`sport` AND s.`taken_at` = `ledger_entries`.`closing_captured_at`
  AND g.`event_id` = `ledger_entries`.`event_id` AND g.`player_key` = `ledger_entries`.`player_key` AND g.`stat_type` = `ledger_entries`.`stat_type`
  AND g.`line` = `ledger_entries`.`line` AND g.`side` <> `ledger_entries`.`side` AND g.`book` = `ledger_entries`.`book` AND g.`fair_prob` IS NOT NULL
  AND (g.`fair_source` <> 'book' OR `ledger_entries`.`locked_fair_source` = 'book');
--> statement-breakpoint
UPDATE `ledger_entries` SET `closing_fair_prob` = g.`fair_prob`, `closing_fair_source` = g.`fair_source`, `close_method` = 'one_yardstick'
FROM `graded_rows` g JOIN `snapshots` s ON s.`id` = g.`snapshot_id`
WHERE `ledger_entries`.`closing_captured_at` IS NOT NULL AND `ledger_entries`.`closing_line` = `ledger_entries`.`line`
  AND s.`sport` = `ledger_entries`.`sport` AND s.`taken_at` = `ledger_entries`.`closing_captured_at`
  AND g.`event_id` = `ledger_entries`.`event_id` AND g.`player_key` = `ledger_entries`.`player_key` AND g.`stat_type` = `ledger_entries`.`stat_type`
  AND g.`line` = `ledger_entries`.`line` AND g.`side` = `ledger_entries`.`side` AND g.`book` = `ledger_entries`.`book` AND g.`fair_prob` IS NOT NULL
  AND (g.`fair_source` <> 'book' OR `ledger_entries`.`locked_fair_source` = 'book');
--> statement-breakpoint
-- Every other stored close is the old reading (the graded book's own pair, or its main line): kept, marked, never mixed in.
UPDATE `ledger_entries` SET `close_method` = 'own_book_devig' WHERE `closing_captured_at` IS NOT NULL AND `close_method` IS NULL;
--> statement-breakpoint
-- Settled entries whose close was re-read: CLV again by the one function's rule (src/domain/clv.ts).
UPDATE `ledger_entries` SET
  `clv_pct` = CASE WHEN `closing_fair_prob` > 0 AND `closing_fair_prob` < 1 AND (`locked_price` >= 100 OR `locked_price` <= -100)
    THEN 100.0 * (`closing_fair_prob` * (CASE WHEN `locked_price` > 0 THEN 1 + `locked_price` / 100.0 ELSE 1 + 100.0 / (-`locked_price`) END) - 1) END,
  `clv` = CASE WHEN `closing_fair_prob` > 0 AND `closing_fair_prob` < 1 AND `locked_fair_prob` > 0 AND `locked_fair_prob` < 1 THEN `closing_fair_prob` - `locked_fair_prob` END
WHERE `outcome` <> 'pending' AND `close_method` = 'one_yardstick' AND `clv_line` = 0;
--> statement-breakpoint
UPDATE `ledger_entries` SET `clv_verdict` = CASE WHEN `clv_pct` IS NULL THEN NULL WHEN abs(`clv_pct`) < 0.5 THEN 'flat' WHEN `clv_pct` > 0 THEN 'beat' ELSE 'faded' END
WHERE `outcome` <> 'pending' AND `close_method` = 'one_yardstick' AND `clv_line` = 0;
