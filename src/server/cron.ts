/** Spec: in-process cron at these UTC hours when SNAPSHOT_CRON=1. */
export const CRON_UTC_HOURS: readonly number[] = [1, 3, 14, 19, 22];

/** The next firing strictly after `now`: the next listed UTC hour, on the hour. */
export function nextCronTime(now: Date, hours: readonly number[] = CRON_UTC_HOURS): Date {
  const sorted = [...hours].sort((a, b) => a - b);
  for (let day = 0; day < 2; day++) {
    for (const h of sorted) {
      const t = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + day, h, 0, 0, 0));
      if (t.getTime() > now.getTime()) return t;
    }
  }
  throw new RangeError('no cron hours given');
}

export interface CronHandle {
  stop(): void;
  /** When the next run is due. */
  next(): Date;
}

/**
 * Schedules `run` at each cron hour, one timer at a time. A run still going when the next hour
 * comes is not doubled up here; the store's run lock also refuses overlapping runs across processes.
 */
export function startCron(run: () => Promise<void>, options: { now?: () => Date; onError?: (error: unknown) => void; hours?: readonly number[] } = {}): CronHandle {
  const clock = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | null = null;
  let due = nextCronTime(clock(), options.hours);
  let running = false;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    due = nextCronTime(clock(), options.hours);
    // setTimeout caps at ~24.8 days; the gap here is at most ~11 hours.
    timer = setTimeout(fire, Math.max(0, due.getTime() - clock().getTime()));
    timer.unref?.();
  };
  const fire = () => {
    if (!running) {
      running = true;
      run()
        .catch((e) => options.onError?.(e))
        .finally(() => {
          running = false;
        });
    }
    schedule();
  };
  schedule();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    next: () => due,
  };
}
