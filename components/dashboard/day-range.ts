// Date filters are the reader's calendar days: from the start of `from` to the end of `to`, local time,
// sent to the API as instants. The queue and the audit log filter this way.
export function setDayRange(params: URLSearchParams, from: string, to: string): void {
  if (from) params.set("from", new Date(`${from}T00:00:00`).toISOString());
  if (to) {
    const end = new Date(`${to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    params.set("to", end.toISOString());
  }
}
