/** Relations checked by hand: columns without a declared foreign key, or ones whose parent may be gone. */
export const ORPHAN_QUERIES: ReadonlyArray<[string, string]> = [
  ['graded_rows -> snapshots', 'select count(*) as n from graded_rows g left join snapshots s on s.id = g.snapshot_id where s.id is null'],
  ['grade_locks -> snapshots', 'select count(*) as n from grade_locks l left join snapshots s on s.id = l.snapshot_id where l.snapshot_id is not null and s.id is null'],
  ['snapshots -> pipeline_runs', 'select count(*) as n from snapshots s left join pipeline_runs r on r.id = s.run_id where s.run_id is not null and r.id is null'],
  ['ledger_entries -> users', 'select count(*) as n from ledger_entries e left join users u on u.id = e.user_id where e.user_id is not null and u.id is null'],
  ['api_tokens -> users', 'select count(*) as n from api_tokens t left join users u on u.id = t.user_id where u.id is null'],
  ['preferences -> users', 'select count(*) as n from preferences p left join users u on u.id = p.user_id where u.id is null'],
  ['subscriptions -> users', 'select count(*) as n from subscriptions s left join users u on u.id = s.user_id where u.id is null'],
];
