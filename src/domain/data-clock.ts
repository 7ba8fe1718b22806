/**
 * The data clock of a read (README "The clock"). One instant, or one per sport: on a replayed store
 * each sport is read as of its own newest snapshot, so a WNBA scan is not read on the NBA's day.
 * A plain Date is the same instant for every sport (--now, PROPGRADE_NOW, the system clock).
 */
export type DataClock = Date | ((sport: string) => Date);

/** The instant a sport is read as of. */
export function clockAt(clock: DataClock, sport: string): Date {
  return clock instanceof Date ? clock : clock(sport);
}
