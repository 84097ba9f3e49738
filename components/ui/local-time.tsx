"use client";
// A date-time shown in the reader's own time zone (the server may run in another one). The ISO value is
// kept in <time dateTime> for machines; before hydration the UTC form shows.
import { useSyncExternalStore } from "react";
import { localParts } from "@/lib/alerts/opening-hours";

const subscribe = () => () => {};

/** In the reader's zone, or in `timeZone` (a store's clock) when given. */
export function formatLocal(iso: string, style: "datetime" | "time" | "date" = "datetime", timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  let [y, mo, day, h, mi] = [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes()];
  if (timeZone) {
    const local = localParts(d, timeZone);
    [y, mo, day, h, mi] = [local.year, local.month, local.day, Math.floor(local.minutes / 60), local.minutes % 60];
  }
  const date = `${y}-${pad(mo)}-${pad(day)}`;
  const time = `${pad(h)}:${pad(mi)}`;
  if (style === "date") return date;
  if (style === "time") return time;
  return `${date} ${time}`;
}

export function LocalTime({
  iso,
  style = "datetime",
  seconds = false,
  timeZone,
}: {
  iso: string;
  style?: "datetime" | "time" | "date";
  seconds?: boolean;
  /** A store's IANA zone: shown in that clock rather than the reader's. */
  timeZone?: string;
}) {
  const isClient = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  let text = isClient ? formatLocal(iso, style, timeZone) : `${iso.slice(0, 16).replace("T", " ")} UTC`;
  if (isClient && seconds) text += `:${String(new Date(iso).getSeconds()).padStart(2, "0")}`;
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}
