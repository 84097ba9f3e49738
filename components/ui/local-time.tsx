"use client";
// A date-time shown in the reader's own time zone (the server may run in another one). The ISO value is
// kept in <time dateTime> for machines; before hydration the UTC form shows.
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function formatLocal(iso: string, style: "datetime" | "time" | "date" = "datetime"): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (style === "date") return date;
  if (style === "time") return time;
  return `${date} ${time}`;
}

export function LocalTime({
  iso,
  style = "datetime",
  seconds = false,
}: {
  iso: string;
  style?: "datetime" | "time" | "date";
  seconds?: boolean;
}) {
  const isClient = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  let text = isClient ? formatLocal(iso, style) : `${iso.slice(0, 16).replace("T", " ")} UTC`;
  if (isClient && seconds) text += `:${String(new Date(iso).getSeconds()).padStart(2, "0")}`;
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}
